-- The hand-over of a take-over (docs/protocol.md §13), shared by answer_takeover and
-- resolve_takeover. Loaded after waitlines_lib.lua (and locks_lib.lua).

-- Hands 'field' to the asker of 'takeover' in this one step, if the lock is still exactly the grant
-- that was asked for (or already free) and nothing else blocks the asker: the holder's grant ends
-- (reason 'taken-over', added to 'released'), the asker gets a new grant with a new fencing token.
-- Otherwise the request ends, and the asker is told which lock stands in the way. Returns true when
-- it handed over.
local function hand_over(ctx, locks_key, live, now, field, takeover, released)
  local forgot, lease_end = forget_dead_sockets(ctx, takeover, now)
  if forgot > 0 then
    local still = redis.call('HGET', ctx.takeovers, field)
    if not still then return false end -- its asker's node died: the request ended without a hand-over
    takeover = cjson.decode(still)
  end
  end_takeover(ctx, field, takeover)
  local lock = live[field]
  if lock ~= nil and lock.u == takeover.u then return false end -- the asker has it already
  if lock ~= nil and (lock.u ~= takeover.h or lock.t ~= takeover.t) then
    ctx.failed[#ctx.failed + 1] = { f = field, u = takeover.u, lock = public_view(lock) }
    return false
  end
  local other = blocked_for(live, field, takeover.u, field)
  if other ~= nil then
    ctx.failed[#ctx.failed + 1] = { f = field, u = takeover.u, lock = public_view(other) }
    return false
  end
  if lock ~= nil then
    redis.call('HDEL', locks_key, field)
    live[field] = nil
    released[#released + 1] = released_entry(lock, 'taken-over', '')
  end
  local granted, schedule = new_grant(ctx, locks_key, live, field, takeover.u, takeover.n, takeover.k, takeover.r, takeover.last, now, lease_end)
  ctx.grants[#ctx.grants + 1] = { kind = 'takeover', lock = granted, schedule = schedule }
  leave_line(ctx, field, takeover.u)
  return true
end
