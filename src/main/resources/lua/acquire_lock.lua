-- acquire_lock: grants one edit lock, or names the other user's lock that blocks it, in one step.
-- Re-entry by the same user (any socket) is the same grant: same token, lease renewed, socket added
-- to the keepers. Cost: O(locks held in the configurator), never O(items).
--
-- KEYS[1] locks         hash of the configurator's locks (see lib.lua)
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
-- KEYS[5..8], ARGV[13..14] waiting lines (waitlines_lib.lua; optional): lines, line, waiters,
--                       takeovers; leaseMs of grants, waiting channel. A free resource with someone
--                       to serve first (a take-over, a line) goes to them, not to this request.
-- Reply (JSON): {s='GRANTED', lock=<record>, reentry=<bool>, schedule=<bool>, released=[...]}
--             | {s='LOCKED', lock=<blocking record>, released=[...]}
--             | {s='NOT_FOUND'}
--             | {s='VOID'}   the request was given up before it got here: nothing done
--   released: leases found expired on the way (released and announced, reason 'expired')
--   schedule: true when the caller must run schedule_expiry with the lock's expiresAt (see
--             needs_schedule in lib.lua); false for a re-entry and when a look is already due in time
local locks_key, configurator_key, items_key, void_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local field, lock_type, configurator_id, item_id, page = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local user_id, user_name, socket_id, node_id = ARGV[6], ARGV[7], ARGV[8], ARGV[9]
local lease_ms, channel, request = tonumber(ARGV[10]), ARGV[11], tonumber(ARGV[12])

-- A command that waited in a frozen Redis may run after its requester was told UNAVAILABLE.
if redis.call('EXISTS', void_key) == 1 then
  return cjson.encode({ s = 'VOID' })
end

if redis.call('EXISTS', configurator_key) == 0 then
  return cjson.encode({ s = 'NOT_FOUND' })
end
if item_id ~= '' and redis.call('HEXISTS', items_key, item_id) == 0 then
  return cjson.encode({ s = 'NOT_FOUND' })
end

local now = now_ms()
local released = {}
local live = load_live(locks_key, now, released)
local waiting = waiting_context(KEYS, 5, ARGV, 13, configurator_id)
local served = false
if #released > 0 or (live[field] == nil and someone_first(waiting, field)) then served = serve(waiting, locks_key, live, now, released, field) end

-- The configurator lock, then variables, then any page: a refusal names the widest blocker.
local blocking = nil
for held_field, lock in pairs(live) do
  if lock.u ~= user_id and conflicts(field, held_field) then
    if blocking == nil or held_field == 'cfg' or (held_field == 'var' and blocking.type ~= 'configurator') then
      blocking = lock
    end
  end
end
if blocking ~= nil then
  if #released > 0 or served then announce(channel, configurator_id, live, released) end
  return cjson.encode({ s = 'LOCKED', lock = blocking, released = released })
end

local own = live[field]
if own ~= nil and own.u == user_id then
  keep(own, socket_id, node_id, request)
  own.e = now + lease_ms
  own.n = user_name
  redis.call('HSET', locks_key, field, cjson.encode(own))
  extend_key(locks_key, lease_ms)
  if #released > 0 or served then announce(channel, configurator_id, live, released) end
  if leave_line(waiting, field, user_id) then publish_waiting(waiting, live) end
  return cjson.encode({ s = 'GRANTED', lock = own, reentry = true, released = released })
end

-- Strictly increasing per configurator (so per resource), and never below the clock in
-- microseconds, so that a Redis that lost its data cannot hand out an old token again.
local token = redis.call('HINCRBY', locks_key, '#seq', 1)
if token < now * 1000 then
  token = now * 1000
  redis.call('HSET', locks_key, '#seq', string.format('%d', token))
end

local lock = { type = lock_type, cfg = configurator_id, u = user_id, n = user_name,
               t = string.format('%d', token), a = now, e = now + lease_ms, k = {} }
keep(lock, socket_id, node_id, request)
if item_id ~= '' then
  lock.item = item_id
  lock.page = page
end
redis.call('HSET', locks_key, field, cjson.encode(lock))
local schedule = needs_schedule(locks_key, now, lock.e)
extend_key(locks_key, lease_ms)
live[field] = lock
announce(channel, configurator_id, live, released)
if leave_line(waiting, field, user_id) then publish_waiting(waiting, live) end
return cjson.encode({ s = 'GRANTED', lock = lock, reentry = false, schedule = schedule, released = released })
