-- withdraw_waiting_request: the server gave up waiting for a wait_for or request_takeover (the store
-- did not answer in time) and told its requester UNAVAILABLE (docs/protocol.md §4). The request must
-- leave nothing behind, as cancel_lock_request does for a lock request: if it has not run yet it
-- never will (the void marker), and if it ran, the socket it added to the user's place in the line, or
-- to their take-over request, goes again; a place or a request that no other socket asked for ends.
-- If the line or the take-over already granted the lock by it, the socket stops keeping that grant,
-- and a grant nobody else keeps is released and announced as any release (reason 'unlock', every
-- socket of the user told). A socket that was there before the request stays, as in cancel_lock_request.
-- Cost: O(locks held + log n).
--
-- KEYS[1] locks         hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2] void          string: the marker wait_for and request_takeover look for
-- KEYS[3..6]            lines, line, waiters, takeovers (see waitlines_lib.lua)
-- ARGV[1] kind          'wait' | 'takeover'
-- ARGV[2] field         ARGV[3] configuratorId
-- ARGV[4] userId        ARGV[5] socketId  ARGV[6] request   the number the request ran under
-- ARGV[7] voidMs        how long the marker stays (longer than a command can wait in Redis)
-- ARGV[8] lockChannel   ARGV[9] leaseMs   ARGV[10] waitChannel
-- Reply (JSON): {released=[<released entry>...]} (expired leases found on the way included)
local locks_key, void_key = KEYS[1], KEYS[2]
local kind, field, configurator_id = ARGV[1], ARGV[2], ARGV[3]
local user_id, socket_id, request = ARGV[4], ARGV[5], tonumber(ARGV[6])
local void_ms, channel = tonumber(ARGV[7]), ARGV[8]

redis.call('SET', void_key, '1', 'PX', void_ms)

local now = now_ms()
local released = {}
local live, book = load_live(locks_key, now, released)
-- The scripts look for void markers only until '#void', and the hash lives at least as long.
local void_until = now + void_ms + 1000
if book_num(book, 'void') < void_until then book_set(book, 'void', void_until) end
keep_until(book, void_until, now)
local ctx = waiting_context(KEYS, 3, ARGV, 9, configurator_id, book)

-- Whether 'record' (a waiter's place, a take-over request, a lock) has the socket by this request.
local function by_request(record)
  return record ~= nil and record.k[socket_id] ~= nil and record.r ~= nil and record.r[socket_id] == request
end

if kind == 'wait' then
  local entry = waiter_of(ctx, field, user_id)
  if by_request(entry) then
    entry.k[socket_id], entry.r[socket_id] = nil, nil
    if entry.last then entry.last[socket_id] = nil end
    socket_index_update(ctx, socket_id, 'w|' .. field .. '|' .. user_id, false)
    if next(entry.k) == nil then
      leave_line(ctx, field, user_id, entry)
    else
      redis.call('HSET', ctx.waiters, field .. '|' .. user_id, cjson.encode(entry))
    end
  end
else
  local raw = redis.call('HGET', ctx.takeovers, field)
  local takeover = raw and cjson.decode(raw) or nil
  if takeover ~= nil and takeover.u == user_id and by_request(takeover) then
    takeover.k[socket_id], takeover.r[socket_id] = nil, nil
    if takeover.last then takeover.last[socket_id] = nil end
    socket_index_update(ctx, socket_id, 't|' .. field, false)
    if next(takeover.k) == nil then
      end_takeover(ctx, field, takeover) -- without a word to the holder, as when the asker goes
    else
      redis.call('HSET', ctx.takeovers, field, cjson.encode(takeover))
    end
  end
end

local lock = live[field]
local changed = {}
if lock ~= nil and lock.u == user_id and by_request(lock) then
  -- No socket is spared its lock-lost: the requester's reply told of no grant.
  changed = give_back(locks_key, live, field, lock, socket_id, 'unlock', released)
end

write_locks(locks_key, book, changed)
-- A place or a request that ended, or a grant that went, may let the next one in.
local served = false
if #released > 0 or ctx.changed then served = serve(ctx, locks_key, live, now, released, field) end
if #released > 0 or served then announce(channel, configurator_id, live, released, now) end
publish_waiting(ctx, live)
return cjson.encode({ released = released })
