-- request_takeover: a user asks the holder of a lock for it (docs/protocol.md §13). The request is
-- kept here, beside the lock, with its deadline; whichever node sees the deadline first resolves
-- it (resolve_takeover), so it does not depend on the node that took it.
--
-- KEYS[1] locks         hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2] configurator  hash: the configurator's record; absent = no such configurator
-- KEYS[3] items         hash: itemId -> item record of this configurator
-- KEYS[4] void          string: present when the server gave this request up (withdraw_waiting_request)
-- KEYS[5..8]            lines, line, waiters, takeovers (see waitlines_lib.lua)
-- ARGV[1] field         ARGV[2] configuratorId  ARGV[3] itemId ('' unless an item page)
-- ARGV[4] userId        ARGV[5] userName  ARGV[6] socketId  ARGV[7] nodeId
-- ARGV[8] message       ('' for none)     ARGV[9] consentMs
-- ARGV[10] lockChannel  ARGV[11] leaseMs  ARGV[12] waitChannel
-- ARGV[13] request      number of this request (from the node's count of lock requests)
-- Reply (JSON): {s='PENDING', deadline, created, holder} | {s='NOT_HELD'} | {s='LOCKED', lock} | {s='BUSY'}
--             | {s='NOT_FOUND'}
--             | {s='VOID'}  the request was given up before it got here: nothing done
--   holder:   the user id of the one asked
--   NOT_HELD: no other user's lock refuses the resource to the asker (nobody else holds it, nothing
--             else blocks it): they can lock it.
--   LOCKED:   another user's lock (blocked_for in locks_lib.lua, the one a refused lock request names)
--             would still refuse it to the asker: the resource is free but that lock blocks it, or the
--             holder's other lock would block it after the hand-over.
-- Cost: O(locks held in the configurator), never O(items).
local locks_key, configurator_key, items_key, void_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local field, configurator_id, item_id = ARGV[1], ARGV[2], ARGV[3]
local user_id, user_name, socket_id, node_id = ARGV[4], ARGV[5], ARGV[6], ARGV[7]
local message, consent_ms, channel, request = ARGV[8], tonumber(ARGV[9]), ARGV[10], tonumber(ARGV[13])
local ended, records, book, now = open_request(locks_key, configurator_key, items_key, void_key, item_id)
if ended ~= nil then return cjson.encode(ended) end

local released = {}
local live = live_of(locks_key, records, now, released)
local ctx = waiting_context(KEYS, 5, ARGV, 11, configurator_id, book)
local served = false
if #released > 0 then served = serve(ctx, locks_key, live, now, released) end
if #released > 0 or served then announce(channel, configurator_id, live, released, now) end

local lock = live[field]
if lock == nil or lock.u == user_id then
  -- Nobody else holds the resource itself, but another lock may still refuse it to the asker (the
  -- configurator lock, for an item page): that lock, as a lock request would name it, is the one to
  -- ask for. Only when nothing refuses it can the asker simply lock it.
  local blocking = blocked_for(live, field, user_id, nil)
  if blocking ~= nil then return cjson.encode({ s = 'LOCKED', lock = blocking }) end
  return cjson.encode({ s = 'NOT_HELD' })
end
local other = blocked_for(live, field, user_id, field)
if other ~= nil then return cjson.encode({ s = 'LOCKED', lock = other }) end

local pending = redis.call('HGET', ctx.takeovers, field)
if pending then
  local takeover = cjson.decode(pending)
  if takeover.u ~= user_id or takeover.t ~= lock.t then return cjson.encode({ s = 'BUSY' }) end
  add_asker(takeover, socket_id, node_id, request)
  redis.call('HSET', ctx.takeovers, field, cjson.encode(takeover))
  socket_index_update(ctx, socket_id, 't|' .. field, true)
  return cjson.encode({ s = 'PENDING', deadline = takeover.d, created = false, holder = takeover.h })
end

local keepers = {}
keepers[socket_id] = node_id
stir(ctx)
local requests, last = {}, {}
requests[socket_id] = request
last[socket_id] = request
local takeover = { u = user_id, n = user_name, k = keepers, r = requests, last = last, h = lock.u, hn = lock.n,
                   t = lock.t, d = now + consent_ms, m = message, q = next_seq(ctx) }
redis.call('HSET', ctx.takeovers, field, cjson.encode(takeover))
socket_index_update(ctx, socket_id, 't|' .. field, true)
ctx.requested[#ctx.requested + 1] = { f = field, u = user_id, n = user_name, h = lock.u, d = takeover.d, m = message }
ctx.changed = true
publish_waiting(ctx, live)
return cjson.encode({ s = 'PENDING', deadline = takeover.d, created = true, holder = lock.u })
