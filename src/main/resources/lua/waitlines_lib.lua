-- Waiting lines (docs/protocol.md §14) and pending take-overs (§13) of one configurator, for the
-- scripts that change its locks. Loaded after locks_lib.lua. A script that frees a lock calls serve() in
-- the same run, so the page goes to the asker of a take-over, else to the head of its line, before
-- anyone else can ask: no gap, and nobody else is woken.
--
-- Keys (all in the configurator's hash slot), given to a script as four KEYS in a row:
--   lines      hash  field -> number of waiters of that resource (also the set of lines, and the
--                    'waiting' counts watchers see)
--   line       zset  every waiter of every resource, score 0, member '<field>|<seq>|<userId>'
--                    (seq zero-padded): lexicographic ranges give one resource's line in order,
--                    so head and position cost O(log n), never O(waiters)
--   waiters    hash  '<field>|<userId>' -> {m=member, n=userName, k={socketId=nodeId}, r={socketId=request},
--                    last={socketId=request}}
--                    r: the wait-for that put each socket there (as a lock's r, locks_lib.lua): a wait-for
--                    the server gave up on (timeout) is undone by it; last: each socket's latest one (as
--                    a lock's q): an idle release decided before it spares the place
--                    's:<socketId>' -> JSON array of what that socket asked for ('w|<field>|<userId>'
--                    for a line, 't|<field>' for a take-over), so a socket that goes is forgotten at once
--                    'e:<socketId>' -> until when (ms) that socket's node vouches for it: two leases
--                    from when the socket started waiting or asking here, or from its node's latest
--                    lease renewal (renew_socket_locks); two, so that a live node whose renewal comes
--                    late keeps its waiters. A socket past it belongs to a node that died: nobody will
--                    say it went, so the reaper's look at the configurator (forget_dead_waiters) and
--                    the step that would serve it forget it instead. A page handed to it gets a lease
--                    that ends where its node's own leases do (e - lease, see forget_dead_sockets)
--                    '#seq' -> the last seq handed out (next_seq): no seq is handed out twice in a
--                    configurator, so a member names one place, never a later one of the same user;
--                    once nobody waits or asks, the hash holds only '#seq', which stays with the
--                    configurator (delete_configurator removes it)
--   takeovers  hash  field -> pending take-over {u, n, k, r, last, h, hn, t, d, m, q}: asker id, name,
--                    sockets and the request-takeover that put each there and the latest (as a waiter's
--                    r and last); holder id and name;
--                    the holder's grant (token) asked for; deadline (ms); message; its place in the
--                    order of asking (a seq from '#seq', as a line's)
-- And two ARGV in a row: the lease (ms) of grants, and the channel of lock events. Every script
-- that serves lines has the configurator's locks hash as KEYS[1]; its '#calm' (see locks_lib.lua)
-- says that there is neither a line nor a take-over, so that a lock request or a release in a
-- configurator nobody waits in reads nothing of the above.
--
-- Every change publishes one waiting event (JSON) on that channel, marked kind='waiting': a node hears
-- the lock and the waiting changes of a configurator on one subscription, in the order they were made,
-- so that the last state it shows is the last one made:
--   {kind='waiting', c, locks=[public views], waiting={canonical=n}, grants=[{kind='queued'|'takeover', lock, schedule}],
--    left=[{f, u, m, why?, s?}], moved=[field], failed=[{f, u, lock}], gone=[{f, u}], requested=[…], refused=[…],
--    ended=[{f, u, why?}]}
--   gone: waiters and take-over askers of a resource that was deleted (their wait ended: NOT_FOUND)
--   ended: every take-over request that ended, however (also those that end without a word: the
--          asker's sockets went, or the asker got the lock another way), by field and asker
--   why: set when the place or the request ended while sockets of its user may be there that nobody
--          told: 'expired' when no node vouched for its sockets any more (a dead node's, or a live
--          node's that could not reach the store for two leases), 'idle' when its user went idle
--          (docs/protocol.md §6), 'stopped' when the user's socket s asked to stop waiting (its reply
--          tells s; the user's other sockets are told by their nodes)

local function field_of(lock)
  if lock.type == 'configurator' then return 'cfg' end
  if lock.type == 'variables' then return 'var' end
  return 'i:' .. lock.item .. ':' .. lock.page
end

local function canonical_of(configurator_id, field)
  if field == 'cfg' then return 'configurator:' .. configurator_id end
  if field == 'var' then return 'configurator:' .. configurator_id .. ':variables' end
  local item, page = string.match(field, '^i:(%d+):(.+)$')
  return 'item:' .. item .. ':' .. page
end

-- nil when the caller passed no waiting keys: then nothing here runs. 'book' is the locks hash's
-- bookkeeping as load_live read it (locks_lib.lua).
local function waiting_context(keys, k, args, a, configurator_id, book)
  if keys[k] == nil or keys[k + 3] == nil then return nil end
  return { locks = keys[1], lines = keys[k], line = keys[k + 1], waiters = keys[k + 2], takeovers = keys[k + 3],
           lease = tonumber(args[a]), channel = args[a + 1], cfg = configurator_id, book = book,
           calm = book.v.calm ~= nil,
           grants = {}, left = {}, moved = {}, failed = {}, gone = {}, requested = {}, refused = {}, ended = {},
           changed = false, forgotten = 0 }
end

-- Whether nobody waits and nobody asks for a take-over in the configurator. Looks (one EXISTS)
-- only when '#calm' does not say so already, and records what it found with the next write_locks.
local function is_calm(ctx)
  if ctx == nil or ctx.calm then return true end
  if redis.call('EXISTS', ctx.lines, ctx.takeovers) == 0 then
    ctx.calm = true
    book_set(ctx.book, 'calm', '1')
  end
  return ctx.calm
end

-- A line or a take-over is about to be added: '#calm' goes, in the same run.
local function stir(ctx)
  if ctx.book.v.calm ~= nil then redis.call('HDEL', ctx.locks, '#calm') end
  ctx.book.v.calm, ctx.book.dirty.calm, ctx.calm = nil, nil, false
end

-- A new grant (new fencing token) of 'field' to 'user', kept by the given sockets. As acquire_lock.
-- 'requests': socketId -> the wait-for or request-takeover that made the socket a keeper (the r of a
-- lock, locks_lib.lua), so that a request the server gave up on gives back the grant it led to.
-- 'latest': socketId -> the socket's latest request for it (the record's 'last'), which becomes the
-- lock's 'q': an idle release decided before it spares the grant, as it spared the place.
-- 'lease_end': when its lease ends (forget_dead_sockets tells), at the latest a lease from now.
local function new_grant(ctx, locks_key, live, field, user, name, keepers, requests, latest, now, lease_end)
  local asked, last = requests or {}, {}
  -- Every keeper: a socket that came by a resume asked again by a 'last' of its own, without an 'r'.
  for socket in pairs(keepers) do last[socket] = (latest and latest[socket]) or asked[socket] end
  local lock = { type = 'configurator', cfg = ctx.cfg, u = user, n = name, t = next_token(ctx.book, now),
                 a = now, e = math.min(lease_end or now + ctx.lease, now + ctx.lease), k = keepers, r = asked, q = last }
  if field == 'var' then
    lock.type = 'variables'
  elseif field ~= 'cfg' then
    local item, page = string.match(field, '^i:(%d+):(.+)$')
    lock.type, lock.item, lock.page = 'item-subresource', item, page
  end
  local schedule = needs_schedule(ctx.book, now, lock.e)
  keep_for_lease(ctx.book, lock.e, now)
  write_locks(locks_key, ctx.book, { field, lock })
  live[field] = lock
  return lock, schedule
end

local function socket_index_update(ctx, socket_id, entry, add)
  local key = 's:' .. socket_id
  local raw = redis.call('HGET', ctx.waiters, key)
  local list = raw and cjson.decode(raw) or {}
  local kept = {}
  for _, e in ipairs(list) do if e ~= entry then kept[#kept + 1] = e end end
  if add then kept[#kept + 1] = entry end
  if #kept == 0 then
    redis.call('HDEL', ctx.waiters, key, 'e:' .. socket_id)
  else
    redis.call('HSET', ctx.waiters, key, cjson.encode(kept))
    if add then redis.call('HSET', ctx.waiters, 'e:' .. socket_id, now_ms() + 2 * ctx.lease) end
  end
end

local function line_position(ctx, field, member)
  return redis.call('ZLEXCOUNT', ctx.line, '[' .. field .. '|', '[' .. member)
end

local function line_head(ctx, field)
  local head = redis.call('ZRANGEBYLEX', ctx.line, '[' .. field .. '|', '[' .. field .. '|~', 'LIMIT', 0, 1)
  return head[1]
end

local function waiter_of(ctx, field, user)
  local raw = redis.call('HGET', ctx.waiters, field .. '|' .. user)
  return raw and cjson.decode(raw) or nil
end

-- Takes 'user' out of the line of 'field' (no-op when not in it). O(log n + the user's sockets).
-- 'entry': the user's waiter record when the caller has just read it. 'why' and 'by': why the place
-- ends and the socket that asked, for the sockets of the user that nobody told (see the waiting event).
local function leave_line(ctx, field, user, entry, why, by)
  if ctx == nil or ctx.calm then return false end
  entry = entry or waiter_of(ctx, field, user)
  if entry == nil then return false end
  redis.call('ZREM', ctx.line, entry.m)
  redis.call('HDEL', ctx.waiters, field .. '|' .. user)
  for socket_id, _ in pairs(entry.k) do socket_index_update(ctx, socket_id, 'w|' .. field .. '|' .. user, false) end
  if redis.call('HINCRBY', ctx.lines, field, -1) <= 0 then redis.call('HDEL', ctx.lines, field) end
  ctx.left[#ctx.left + 1] = { f = field, u = user, m = entry.m, why = why, s = by }
  ctx.moved[field] = true
  ctx.changed = true
  return true
end

-- The socket asks for 'record' (a waiter's place, a take-over request) by 'request' (see r above). A
-- socket in it already stays by the request that put it there, as keep() does for a lock's keepers;
-- 'last' holds its latest request, which an idle release decided before it spares (forget_socket).
local function add_asker(record, socket_id, node_id, request)
  record.r = record.r or {}
  record.last = record.last or {}
  if record.k[socket_id] == nil then record.r[socket_id] = request end
  record.k[socket_id] = node_id
  record.last[socket_id] = request
end

-- The next number in the order of asking. A node tells a place apart from a later place of the same
-- user in the same line only by its member, so a number is never handed out twice: the count stays
-- when the lines empty (publish_waiting), and it never falls behind the clock in tenths of a
-- millisecond, so a count that starts again (the store lost it or fell back to a replica behind it,
-- or a node of an earlier version deleted it) starts above the numbers handed out before, as fencing
-- tokens do (locks_lib.lua); no line takes ten places in a tenth of a millisecond for long. Tenths,
-- not microseconds: 14 digits, which cjson writes exactly (a take-over's q).
local function next_seq(ctx)
  local t = redis.call('TIME')
  local tenths = tonumber(t[1]) * 10000 + math.floor(tonumber(t[2]) / 100)
  local seq = math.max(tonumber(redis.call('HGET', ctx.waiters, '#seq') or '0') + 1, tenths)
  redis.call('HSET', ctx.waiters, '#seq', string.format('%d', seq))
  return seq
end

-- Joins 'user' (from this socket, by wait-for 'request') to the line of 'field', or adds the socket
-- to the user's place. Returns the position (1 = next) and the user's member of the line.
local function join_line(ctx, field, user, name, socket_id, node_id, request)
  local wk = field .. '|' .. user
  local entry = waiter_of(ctx, field, user)
  if entry == nil then
    stir(ctx)
    local seq = next_seq(ctx)
    entry = { m = field .. '|' .. string.format('%016d', seq) .. '|' .. user, n = name, k = {} }
    redis.call('ZADD', ctx.line, 0, entry.m)
    redis.call('HINCRBY', ctx.lines, field, 1)
    ctx.changed = true
  end
  add_asker(entry, socket_id, node_id, request)
  entry.n = name
  redis.call('HSET', ctx.waiters, wk, cjson.encode(entry))
  socket_index_update(ctx, socket_id, 'w|' .. wk, true)
  return line_position(ctx, field, entry.m), entry.m
end

local function end_takeover(ctx, field, takeover, why)
  redis.call('HDEL', ctx.takeovers, field)
  for socket_id, _ in pairs(takeover.k) do socket_index_update(ctx, socket_id, 't|' .. field, false) end
  ctx.ended[#ctx.ended + 1] = { f = field, u = takeover.u, why = why }
  ctx.changed = true
end

-- A socket is gone for good: it no longer waits, nor asks for a take-over. A user whose last
-- socket that was is out of the line (and their take-over request ends without a word). 'why': as
-- leave_line's. 'up_to' (an idle release; nil otherwise): a place or a request the socket asked for
-- by a request numbered above it came after the idle decision, and stays, as a grant would.
local function forget_socket(ctx, socket_id, why, up_to)
  if ctx == nil then return end
  local raw = redis.call('HGET', ctx.waiters, 's:' .. socket_id)
  if not raw then return end
  -- The socket may head other lines or ask for other take-overs: what a caller read of those before
  -- this is stale now (see serve).
  ctx.forgotten = ctx.forgotten + 1
  local stays = {}
  for _, entry in ipairs(cjson.decode(raw)) do
    local kind, field, user = string.match(entry, '^(%a)|([^|]*)|?(.*)$')
    local record
    if kind == 'w' then
      record = waiter_of(ctx, field, user)
    else
      local pending = redis.call('HGET', ctx.takeovers, field)
      record = pending and cjson.decode(pending) or nil
    end
    if record ~= nil and up_to ~= nil and record.last and (record.last[socket_id] or 0) > up_to then
      stays[#stays + 1] = entry
    elseif record ~= nil then
      record.k[socket_id] = nil
      if record.r then record.r[socket_id] = nil end
      if record.last then record.last[socket_id] = nil end
      if kind == 'w' then
        if next(record.k) == nil then
          leave_line(ctx, field, user, nil, why)
        else
          redis.call('HSET', ctx.waiters, field .. '|' .. user, cjson.encode(record))
        end
      elseif next(record.k) == nil then
        end_takeover(ctx, field, record, why)
      else
        redis.call('HSET', ctx.takeovers, field, cjson.encode(record))
      end
    end
  end
  if #stays > 0 then
    redis.call('HSET', ctx.waiters, 's:' .. socket_id, cjson.encode(stays))
  else
    redis.call('HDEL', ctx.waiters, 's:' .. socket_id, 'e:' .. socket_id)
  end
end

-- Forgets the sockets of 'record' (a waiter's place, a take-over request) whose node no longer
-- vouches for them (see 'e:' above): the node died, and no other step would ever say they went.
-- Returns how many it forgot, and when the lease of a page handed to the sockets left should end:
-- where the latest word of their nodes put those nodes' own leases (e - lease). A page handed to a
-- socket whose node died after its last word then sits with nobody no longer than that node's own
-- locks do, and a live node renews it with them. nil (a whole lease from now) when a socket left has
-- no 'e:', or when that end has passed: a node silent that long has lost its own locks, or every node
-- was cut off from the store for that long, and the socket keeps its place for two leases either way.
-- O(the record's sockets).
local function forget_dead_sockets(ctx, record, now)
  if ctx == nil or record == nil then return 0, nil end
  local dead, lease_end, unvouched = {}, nil, false
  for socket_id, _ in pairs(record.k) do
    local vouched = tonumber(redis.call('HGET', ctx.waiters, 'e:' .. socket_id))
    if vouched == nil then
      unvouched = true
    elseif vouched <= now then
      dead[#dead + 1] = socket_id
    elseif lease_end == nil or vouched - ctx.lease > lease_end then
      lease_end = vouched - ctx.lease
    end
  end
  for _, socket_id in ipairs(dead) do forget_socket(ctx, socket_id, 'expired') end
  if unvouched or (lease_end ~= nil and lease_end <= now) then lease_end = nil end
  return #dead, lease_end
end

-- Forgets every socket of the configurator's lines and take-over requests whose node no longer
-- vouches for it, wherever it waits: a dead node's users leave their lines (those behind move up,
-- and 'waiting' counts them no more) also while the page they wait for stays held, and no step
-- would serve them. The reaper's look at the configurator runs it, which comes at least once a lease
-- while anyone holds a lock there, and a line only stands behind a held lock. O(waiters + askers).
local function forget_dead_waiters(ctx, now)
  if is_calm(ctx) then return end
  local flat = redis.call('HGETALL', ctx.waiters)
  for i = 1, #flat, 2 do
    local socket_id = string.match(flat[i], '^e:(.+)$')
    if socket_id ~= nil and tonumber(flat[i + 1]) <= now then forget_socket(ctx, socket_id, 'expired') end
  end
end

-- Grants 'field' to whoever comes first, if it is free for them: the asker of a pending take-over
-- ('raw', as read from the take-overs hash), else the head of its line ('head': its member, when the
-- caller has just read it). Both must be as they stand now: read since the last forget_socket, which
-- may have ended that request or taken that head out of the line. O(locks held + log n).
local function serve_field(ctx, locks_key, live, now, field, raw, head)
  local lease_end
  if raw then
    local forgot
    forgot, lease_end = forget_dead_sockets(ctx, cjson.decode(raw), now)
    if forgot > 0 then
      raw = redis.call('HGET', ctx.takeovers, field) -- false: it ended, its asker had no other socket
    end
  end
  if raw then
    local takeover = cjson.decode(raw)
    local held = live[field]
    if held ~= nil and held.u ~= takeover.u then return end -- still held: the consent window decides
    if held == nil then
      -- The holder let go: the hand-over is due now. The request can no longer be answered, so
      -- another lock in the asker's way ends it here, with that lock named (§13), and the page goes
      -- to its line, not later to the asker ahead of the line.
      local other = blocked_for(live, field, takeover.u, nil)
      end_takeover(ctx, field, takeover)
      if other ~= nil then
        ctx.failed[#ctx.failed + 1] = { f = field, u = takeover.u, lock = public_view(other) }
      else
        local lock, schedule = new_grant(ctx, locks_key, live, field, takeover.u, takeover.n, takeover.k, takeover.r, takeover.last, now, lease_end)
        ctx.grants[#ctx.grants + 1] = { kind = 'takeover', lock = lock, schedule = schedule }
        leave_line(ctx, field, takeover.u)
        return
      end
    else
      end_takeover(ctx, field, takeover) -- the asker got it another way
    end
  end
  while true do
    local member = head or line_head(ctx, field)
    head = nil
    if member == nil then return end
    local user = string.match(member, '^[^|]*|%d+|(.*)$')
    local held = live[field]
    if held ~= nil and held.u ~= user then return end
    if held ~= nil then
      leave_line(ctx, field, user) -- granted another way: out of the line, look at the next
    else
      local entry = waiter_of(ctx, field, user)
      -- Sockets of a dead node forgotten: the head (the same user, if they have others) is read again.
      local forgot, head_lease_end = forget_dead_sockets(ctx, entry, now)
      if forgot == 0 then
        if blocked_for(live, field, user, nil) ~= nil then return end
        leave_line(ctx, field, user, entry)
        local lock, schedule = new_grant(ctx, locks_key, live, field, user, entry.n, entry.k, entry.r, entry.last, now, head_lease_end)
        ctx.grants[#ctx.grants + 1] = { kind = 'queued', lock = lock, schedule = schedule }
        return
      end
    end
  end
end

-- The waiting counts watchers see: canonical -> n.
local function waiting_counts(ctx)
  local flat = redis.call('HGETALL', ctx.lines)
  local counts = {}
  local any = false
  for i = 1, #flat, 2 do
    counts[canonical_of(ctx.cfg, flat[i])] = tonumber(flat[i + 1])
    any = true
  end
  if not any then return nil end
  return counts
end

-- Publishes what changed in the lines and take-overs, if anything did. Call once, at the end.
local function publish_waiting(ctx, live)
  if ctx == nil or (not ctx.changed and #ctx.grants == 0) then return end
  local views = {}
  for _, lock in pairs(live) do views[#views + 1] = public_view(lock) end
  local moved = {}
  for field, _ in pairs(ctx.moved) do moved[#moved + 1] = field end
  local counts = waiting_counts(ctx)
  -- Nobody waits or asks any more: the waiters hash holds nothing but '#seq' now, so a configurator
  -- keeps nothing of the people who waited in it, and the count goes on from there (next_seq).
  run_waiting_counts = counts or cjson.null -- the run's announcement carries them too (locks_lib.lua)
  redis.call('PUBLISH', ctx.channel, cjson.encode({ kind = 'waiting', c = ctx.cfg, locks = views, waiting = counts or cjson.null,
    grants = ctx.grants, left = ctx.left, moved = moved, failed = ctx.failed, gone = ctx.gone,
    requested = ctx.requested, refused = ctx.refused, ended = ctx.ended }))
  ctx.changed = false
  ctx.grants, ctx.left, ctx.moved, ctx.failed, ctx.gone, ctx.requested, ctx.refused = {}, {}, {}, {}, {}, {}, {}
  ctx.ended = {}
end

-- The candidates that someone asks for, in the order they asked: a grant to one may block another
-- (the configurator conflicts with every page), so whoever asked first is served first, whatever
-- the order Lua keeps a table in. A take-over counts from its request, a line from its head's
-- joining; both draw from the one '#seq'. A take-over from before take-overs were numbered counts
-- as first. Ties (none within one configurator) fall back to the field's name. What it reads holds
-- only until a dead socket is forgotten (serve reads again after that); the order stays, so a line
-- whose head was forgotten is served in that head's turn, as serve_field serves the next head then.
local function first_asked_first(ctx, candidates, pending)
  local claims = {}
  for i, field in ipairs(candidates) do
    local raw, since, head = pending[i], nil, nil
    if raw then
      since = tonumber(cjson.decode(raw).q or 0)
    else
      head = line_head(ctx, field)
      if head ~= nil then since = tonumber(string.match(head, '^[^|]*|(%d+)|')) end
    end
    if since ~= nil then claims[#claims + 1] = { field = field, raw = raw or false, head = head, since = since } end
  end
  table.sort(claims, function(a, b)
    if a.since ~= b.since then return a.since < b.since end
    return a.field < b.field
  end)
  return claims
end

-- After locks were freed (or may have been, unseen): serves the lines and pending take-overs that
-- the change may have unblocked — those of the released resources, of lines that changed, and
-- 'field', and the configurator's own line — or, with 'released' nil (the reaper's catch-up), all of
-- them. Only a released configurator lock can unblock every line. Returns true when it granted something (the caller then
-- announces the new state). Cost: O(locks held + log n) per line looked at, never O(waiters).
local function serve(ctx, locks_key, live, now, released, field)
  if ctx == nil or ctx.calm then return false end
  local fields, all = {}, released == nil
  if not all then
    for _, entry in ipairs(released) do
      local freed = field_of(entry.lock)
      if freed == 'cfg' then all = true end
      fields[freed] = true
    end
    for moved, _ in pairs(ctx.moved) do fields[moved] = true end
    if field ~= nil then fields[field] = true end
    fields['cfg'] = true -- the configurator conflicts with everything: any release may unblock its line
  end
  if all then
    for _, f in ipairs(redis.call('HKEYS', ctx.lines)) do fields[f] = true end
    for _, f in ipairs(redis.call('HKEYS', ctx.takeovers)) do fields[f] = true end
  end
  -- The pending take-overs of every candidate in one read.
  local candidates = {}
  for candidate, _ in pairs(fields) do candidates[#candidates + 1] = candidate end
  local pending = call_in_chunks('HMGET', ctx.takeovers, candidates)
  local read_at = ctx.forgotten
  for _, claim in ipairs(first_asked_first(ctx, candidates, pending)) do
    local raw, head = claim.raw, claim.head
    if ctx.forgotten ~= read_at then
      -- Serving an earlier claim forgot a dead node's socket (§5, §14), and with it that socket's places
      -- in every line and its take-over requests: this claim's head may have left its line, its request
      -- may have ended or lost that socket. Read again (serve_field reads the head), or a page is handed
      -- to someone gone, or a head whose waiter record is gone is served. Only after a forget, so a
      -- release that forgets nobody costs what it did.
      raw, head = redis.call('HGET', ctx.takeovers, claim.field), nil
    end
    serve_field(ctx, locks_key, live, now, claim.field, raw, head)
  end
  local granted = #ctx.grants > 0
  publish_waiting(ctx, live)
  return granted
end

-- A delete refused by its guard still serves the lines that the leases its guard found expired
-- unblock (run_guard in guards_lib.lua released them), and announces what that granted.
local function serve_expired(ctx, locks_key, live, now, expired, channel, configurator_id)
  if #expired > 0 and serve(ctx, locks_key, live, now, expired) then
    announce(channel, configurator_id, live, {}, now)
  end
end

-- Whether a free 'field' has someone to serve first (then a lock request must not take it).
local function someone_first(ctx, field)
  if ctx == nil or ctx.calm then return false end
  return redis.call('HEXISTS', ctx.lines, field) == 1 or redis.call('HEXISTS', ctx.takeovers, field) == 1
end

-- The resources in 'fields' were deleted: their lines and pending take-overs end, and each waiter
-- and asker is told (ctx.gone), so that nothing is ever granted on what no longer exists. Cost:
-- O(log n) per field, plus the waiters of those lines, who each have to be told anyway.
-- 'fields' nil: every line and take-over of the configurator (it was deleted).
local function end_lines_of(ctx, fields)
  if ctx == nil or (fields ~= nil and next(fields) == nil) or is_calm(ctx) then return end
  if fields == nil then
    local all = {}
    for _, f in ipairs(redis.call('HKEYS', ctx.lines)) do all[f] = true end
    for _, f in ipairs(redis.call('HKEYS', ctx.takeovers)) do all[f] = true end
    fields = {}
    for f, _ in pairs(all) do fields[#fields + 1] = f end
  end
  for _, field in ipairs(fields) do
    local pending = redis.call('HGET', ctx.takeovers, field)
    if pending then
      local takeover = cjson.decode(pending)
      end_takeover(ctx, field, takeover)
      ctx.gone[#ctx.gone + 1] = { f = field, u = takeover.u }
    end
    if redis.call('HEXISTS', ctx.lines, field) == 1 then
      for _, member in ipairs(redis.call('ZRANGEBYLEX', ctx.line, '[' .. field .. '|', '[' .. field .. '|~')) do
        local user = string.match(member, '^[^|]*|%d+|(.*)$')
        if leave_line(ctx, field, user) then ctx.gone[#ctx.gone + 1] = { f = field, u = user } end
      end
    end
  end
end

-- Resume: what the old socket waited for, the new socket waits for, in the same place. Returns
-- whether the new socket waits or asks for anything here now (also when an earlier run of a retried
-- resume moved it).
local function move_waiting_socket(ctx, old_socket, new_socket, new_node)
  if ctx == nil then return false end
  local raw = redis.call('HGET', ctx.waiters, 's:' .. old_socket)
  if not raw then return redis.call('HEXISTS', ctx.waiters, 's:' .. new_socket) == 1 end
  for _, entry in ipairs(cjson.decode(raw)) do
    local kind, field, user = string.match(entry, '^(%a)|([^|]*)|?(.*)$')
    local key, hash = field .. '|' .. user, ctx.waiters
    if kind == 't' then key, hash = field, ctx.takeovers end
    local record = redis.call('HGET', hash, key)
    if record then
      local decoded = cjson.decode(record)
      decoded.k[old_socket] = nil
      decoded.k[new_socket] = new_node
      -- As for locks (move_socket_locks): the new socket waits by the resume, not by a request of its own.
      if decoded.r then decoded.r[old_socket] = nil end
      if decoded.last then decoded.last[old_socket] = nil end
      redis.call('HSET', hash, key, cjson.encode(decoded))
    end
  end
  redis.call('HDEL', ctx.waiters, 's:' .. old_socket, 'e:' .. old_socket)
  -- The new socket may wait or ask on its own already: its list gains the old one's, it is not replaced.
  for _, entry in ipairs(cjson.decode(raw)) do socket_index_update(ctx, new_socket, entry, true) end
  return true
end

-- What a socket waits for here: its places in lines ({f=field, m=member} each) and its take-over
-- requests ({f=field, h=holder} each). The node of a socket that resumed tells its user how they move
-- up, when a place ends and how a request ends, as the node they asked from would have (docs/protocol.md
-- §13, §14). One read per line or request (at most a user's limit of lines).
local function waits_of(ctx, socket_id)
  local places, asks = {}, {}
  local raw = redis.call('HGET', ctx.waiters, 's:' .. socket_id)
  if not raw then return places, asks end
  for _, entry in ipairs(cjson.decode(raw)) do
    local kind, field, user = string.match(entry, '^(%a)|([^|]*)|?(.*)$')
    if kind == 'w' then
      local record = redis.call('HGET', ctx.waiters, field .. '|' .. user)
      if record then places[#places + 1] = { f = field, m = cjson.decode(record).m } end
    else
      local record = redis.call('HGET', ctx.takeovers, field)
      if record then asks[#asks + 1] = { f = field, h = cjson.decode(record).h } end
    end
  end
  return places, asks
end
