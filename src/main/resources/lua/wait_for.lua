-- wait_for: a user asks to wait for a resource (docs/protocol.md §14). When nothing stands between the
-- user and the resource (no other user's conflicting lock, nobody to serve first) the answer is FREE
-- and the caller locks it as any lock request; else the user joins the line, or keeps their place.
-- The count of the user's lines lives in another slot: the caller checks it first and says here
-- whether a new line is allowed, so that a user at the limit still gets a page free for them.
-- Cost: O(locks held + log n).
--
-- KEYS[1] locks         hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2] configurator  hash: the configurator's record; absent = no such configurator
-- KEYS[3] items         hash: itemId -> item record of this configurator
-- KEYS[4] void          string: present when the server gave this request up (withdraw_waiting_request)
-- KEYS[5..8]            lines, line, waiters, takeovers (see waitlines_lib.lua)
-- ARGV[1] field         ARGV[2] configuratorId  ARGV[3] itemId ('' unless an item page)
-- ARGV[4] userId        ARGV[5] userName  ARGV[6] socketId  ARGV[7] nodeId
-- ARGV[8] lockChannel   ARGV[9] leaseMs   ARGV[10] waitChannel
-- ARGV[11] mayJoin      '1' when the user may join one more line, '0' when they wait in as many as allowed
-- ARGV[12] request      number of this request (from the node's count of lock requests)
-- Reply (JSON): {s='FREE'} | {s='QUEUED', position, member} | {s='NOT_FOUND'}
--             | {s='FULL'}  the user would have to join the line, is not in it, and may join no more
--             | {s='VOID'}  the request was given up before it got here: nothing done
--   member: the user's place in the line (for positions, see waitlines_lib.lua)
--   released (expired leases found on the way) are announced here.
local locks_key, configurator_key, items_key, void_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local field, configurator_id, item_id = ARGV[1], ARGV[2], ARGV[3]
local user_id, user_name, socket_id, node_id, channel = ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local may_join, request = ARGV[11] == '1', tonumber(ARGV[12])
local ended, records, book, now = open_request(locks_key, configurator_key, items_key, void_key, item_id)
if ended ~= nil then return cjson.encode(ended) end

local released = {}
local live = live_of(locks_key, records, now, released)
local ctx = waiting_context(KEYS, 5, ARGV, 9, configurator_id, book)
local served = false
if #released > 0 or (live[field] == nil and someone_first(ctx, field)) then served = serve(ctx, locks_key, live, now, released, field) end
if #released > 0 or served then announce(channel, configurator_id, live, released, now) end

-- Whoever the line could serve was served just above: a free page with a line left is one its head
-- is blocked from, so a user whom nothing blocks takes it at once, as a lock request would (§14).
local own = live[field]
if (own ~= nil and own.u == user_id) or blocked_for(live, field, user_id, nil) == nil then
  leave_line(ctx, field, user_id)
  publish_waiting(ctx, live)
  return cjson.encode({ s = 'FREE' })
end
if not may_join and waiter_of(ctx, field, user_id) == nil then
  publish_waiting(ctx, live)
  return cjson.encode({ s = 'FULL' })
end
local position, member = join_line(ctx, field, user_id, user_name, socket_id, node_id, request)
publish_waiting(ctx, live)
return cjson.encode({ s = 'QUEUED', position = position, member = member })
