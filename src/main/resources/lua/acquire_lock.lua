-- acquire_lock: grants one edit lock, or names the other user's lock that blocks it, in one step.
-- Re-entry by the same user (any socket) is the same grant: same token, lease renewed, socket added
-- to the keepers. Cost: O(locks held in the configurator), never O(items). When several locks
-- block, the refusal names the widest: the configurator lock, then variables, then the item page
-- whose field sorts first (blocked_for in locks_lib.lua).
-- Redis work of a grant in a configurator that keeps its bookkeeping (see locks_lib.lua): TIME,
-- HGETALL, one HSET, PUBLISH (HEXISTS for an item page); the void marker, the configurator record,
-- the waiting lines and the TTL are looked at only when the bookkeeping cannot answer for them.
--
-- KEYS[1] locks         hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2] configurator  hash: the configurator's catalog record; absent = no such configurator
-- KEYS[3] items         hash: itemId -> item record of this configurator
-- KEYS[4] void          string: present when the server gave this request up (cancel_lock_request)
-- ARGV[1] field         'cfg' | 'var' | 'i:<itemId>:<page>'
-- ARGV[2] type          'configurator' | 'variables' | 'item-subresource'
-- ARGV[3] configuratorId
-- ARGV[4] itemId        '' unless item-subresource
-- ARGV[5] page          '' unless item-subresource
-- ARGV[6] userId        ARGV[7] userName
-- ARGV[8] socketId      ARGV[9] nodeId of the socket
-- ARGV[10] leaseMs
-- ARGV[11] channel      pub/sub channel for change events
-- ARGV[12] request      number of this lock request (increasing per node)
-- ARGV[13] maxLocks     locks one user may hold in this configurator: a new grant beyond them is refused
--                       (a re-entry is not a new grant); this bounds what one user adds to every
--                       decision's cost here
-- KEYS[5..8], ARGV[14..15] waiting lines (waitlines_lib.lua; optional): lines, line, waiters,
--                       takeovers; leaseMs of grants, waiting channel. A free resource with someone
--                       to serve first (a take-over, a line) goes to them, not to this request.
-- Reply (JSON): {s='GRANTED', lock=<record>, reentry=<bool>, schedule=<bool>, released=[...]}
--             | {s='LOCKED', lock=<blocking record>, released=[...]}
--             | {s='NOT_FOUND'}
--             | {s='LIMIT', limit=<maxLocks>, released=[...]}   the user holds maxLocks here already
--             | {s='VOID'}   the request was given up before it got here: nothing done
--   released: leases found expired on the way (released and announced, reason 'expired')
--   schedule: true when the caller must run schedule_expiry with the lock's expiresAt (see
--             needs_schedule in locks_lib.lua); false for a re-entry and when a look is already due in time.
--             The announcement then carries it too ('look', see announce in locks_lib.lua), for the
--             other nodes to schedule should this one die before it does
local locks_key, configurator_key, items_key, void_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local field, lock_type, configurator_id, item_id, page = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local user_id, user_name, socket_id, node_id = ARGV[6], ARGV[7], ARGV[8], ARGV[9]
local lease_ms, channel, request = tonumber(ARGV[10]), ARGV[11], tonumber(ARGV[12])
local max_locks = tonumber(ARGV[13])

local ended, records, book, now = open_request(locks_key, configurator_key, items_key, void_key, item_id)
if ended ~= nil then return cjson.encode(ended) end

local released = {}
local live = live_of(locks_key, records, now, released)
local waiting = waiting_context(KEYS, 5, ARGV, 14, configurator_id, book)
local served = false
if not is_calm(waiting) and (#released > 0 or (live[field] == nil and someone_first(waiting, field))) then
  served = serve(waiting, locks_key, live, now, released, field)
end

local blocking = blocked_for(live, field, user_id, nil)
if blocking ~= nil then
  if #released > 0 or served then announce(channel, configurator_id, live, released, now) end
  return cjson.encode({ s = 'LOCKED', lock = blocking, released = released })
end

local own = live[field]
if own ~= nil and own.u == user_id then
  keep(own, socket_id, node_id, request)
  own.e = now + lease_ms
  own.n = user_name
  keep_for_lease(book, own.e, now)
  write_locks(locks_key, book, { field, own })
  if #released > 0 or served then announce(channel, configurator_id, live, released, now) end
  if leave_line(waiting, field, user_id) then publish_waiting(waiting, live) end
  return cjson.encode({ s = 'GRANTED', lock = own, reentry = true, released = released })
end

local held = 0
for _, each in pairs(live) do
  if each.u == user_id then held = held + 1 end
end
if held >= max_locks then
  if #released > 0 or served then announce(channel, configurator_id, live, released, now) end
  return cjson.encode({ s = 'LIMIT', limit = max_locks, released = released })
end

local lock = { type = lock_type, cfg = configurator_id, u = user_id, n = user_name,
               t = next_token(book, now), a = now, e = now + lease_ms, k = {} }
keep(lock, socket_id, node_id, request)
if item_id ~= '' then
  lock.item = item_id
  lock.page = page
end
local schedule = needs_schedule(book, now, lock.e)
keep_for_lease(book, lock.e, now)
write_locks(locks_key, book, { field, lock })
live[field] = lock
announce(channel, configurator_id, live, released, now, schedule and { at = lock.e, socket = socket_id } or nil)
if leave_line(waiting, field, user_id) then publish_waiting(waiting, live) end
return cjson.encode({ s = 'GRANTED', lock = lock, reentry = false, schedule = schedule, released = released })
