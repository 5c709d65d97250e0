-- Shared helpers of the scripts. The loader (LuaScript) puts this file in front of every
-- script, so each script run stays one self-contained EVAL.
--
-- A lock is one field of the configurator's locks hash; its value is a JSON record:
--   type, cfg, item, page   the resource ('item'/'page' only for item sub-pages)
--   u, n                    holder user id and display name
--   t                       fencing token (string: a double would lose digits in cjson)
--   a, e                    acquiredAt and expiresAt, epoch milliseconds (Redis TIME)
--   k                       keepers: socketId -> nodeId, the sockets that keep the lock alive
-- Field names: 'cfg' (configurator), 'var' (variables), 'i:<itemId>:<page>' (item sub-page).
-- Fields starting with '#' are bookkeeping ('#seq': the last fencing token handed out).

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- The table of PROTOCOL §2 as one rule: the configurator conflicts with everything in it,
-- variables only with variables, an item page only with the same page of the same item.
local function conflicts(requested, held)
  if requested == 'cfg' or held == 'cfg' then return true end
  if requested == 'var' or held == 'var' then return requested == held end
  return requested == held
end

-- What watchers may see of a lock: no token, no keepers.
local function public_view(lock)
  return { type = lock.type, cfg = lock.cfg, item = lock.item, page = lock.page,
           u = lock.u, n = lock.n, a = lock.a, e = lock.e }
end

-- The token rides along for the audit log of the node that caused the release; clients never see it.
local function released_entry(lock, reason, except_socket)
  local view = public_view(lock)
  view.t = lock.t
  return { lock = view, reason = reason, except = except_socket }
end

-- Every live lock of the configurator by field. Expired ones are deleted on the way and added to
-- 'released' with reason 'expired': an expired lease is gone for every decision. O(locks held).
local function load_live(locks_key, now, released)
  local flat = redis.call('HGETALL', locks_key)
  local live = {}
  for i = 1, #flat, 2 do
    local field = flat[i]
    if string.sub(field, 1, 1) ~= '#' then
      local lock = cjson.decode(flat[i + 1])
      if lock.e > now then
        live[field] = lock
      else
        redis.call('HDEL', locks_key, field)
        released[#released + 1] = released_entry(lock, 'expired', '')
      end
    end
  end
  return live
end

local function has_keepers(lock)
  return next(lock.k) ~= nil
end

-- Keeps the hash alive at least as long as its longest lease, and '#seq' a while after.
local function extend_key(locks_key, lease_ms)
  redis.call('PEXPIRE', locks_key, lease_ms + 60000)
end

-- Announces a change of the configurator to every node: the whole live state plus the releases.
-- Published from inside the script run that made the change, so no change goes unannounced.
local function announce(channel, configurator_id, live, released)
  local views = {}
  for _, lock in pairs(live) do views[#views + 1] = public_view(lock) end
  redis.call('PUBLISH', channel, cjson.encode({ c = configurator_id, locks = views, released = released, ts = now_ms() }))
end
