-- resolve_takeover: the consent window of a pending take-over ended without an answer
-- (docs/protocol.md §13): no answer counts as yes. Run by any node's sweep; the request is gone
-- after the first run, so the hand-over happens once whichever node runs it.
--
-- A sweep runs it twice. First with deadNodes '?': it only names the nodes of the asker's sockets.
-- The sweep asks each node's heartbeat (a key in another slot, so not read here), then runs it with
-- the nodes found dead: their sockets leave this request before the hand-over, so that a page is not
-- taken from a holder who is there for an asker whose node died meanwhile. Only this request: their
-- places elsewhere last until no node vouches for them (waitlines_lib.lua), for a node only cut off
-- from the store is alive. Without deadNodes it hands over at once.
--
-- KEYS[1] locks         hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2..5]            lines, line, waiters, takeovers (see waitlines_lib.lua)
-- ARGV[1] field         ARGV[2] configuratorId
-- ARGV[3] lockChannel   ARGV[4] leaseMs   ARGV[5] waitChannel
-- ARGV[6] deadNodes     optional: '?', or a JSON array of the node ids whose heartbeat has ended
-- Reply (JSON): {s='GONE'} | {s='NOT_DUE', deadline} | {s='DUE', nodes=[nodeId]} (deadNodes '?')
--             | {s='ENDED', holder, released=[...]} (every socket of the asker was on a dead node: nothing
--               handed over)
--             | {s='RESOLVED', handed, holder, released=[...]}
local locks_key, takeovers_key = KEYS[1], KEYS[5]
local field, configurator_id, channel, dead_nodes = ARGV[1], ARGV[2], ARGV[3], ARGV[6]

local pending = redis.call('HGET', takeovers_key, field)
if not pending then return cjson.encode({ s = 'GONE' }) end
local takeover = cjson.decode(pending)
local now = now_ms()
if takeover.d > now then return cjson.encode({ s = 'NOT_DUE', deadline = takeover.d }) end

if dead_nodes == '?' then
  local nodes, seen = {}, {}
  for _, node_id in pairs(takeover.k) do
    if not seen[node_id] then
      seen[node_id] = true
      nodes[#nodes + 1] = node_id
    end
  end
  return cjson.encode({ s = 'DUE', nodes = nodes })
end

local released = {}
local live, book = load_live(locks_key, now, released)
local ctx = waiting_context(KEYS, 2, ARGV, 4, configurator_id, book)
if dead_nodes ~= nil and dead_nodes ~= '' then
  local dead = {}
  for _, node_id in ipairs(cjson.decode(dead_nodes)) do dead[node_id] = true end
  local gone = {}
  for socket_id, node_id in pairs(takeover.k) do
    if dead[node_id] then gone[#gone + 1] = socket_id end
  end
  for _, socket_id in ipairs(gone) do
    takeover.k[socket_id] = nil
    if takeover.r then takeover.r[socket_id] = nil end
    if takeover.last then takeover.last[socket_id] = nil end
    socket_index_update(ctx, socket_id, 't|' .. field, false)
  end
  if #gone > 0 and next(takeover.k) == nil then
    -- The asker's last socket went with its node: the request ended without a word (§13).
    end_takeover(ctx, field, takeover, 'expired')
    local served = #released > 0 and serve(ctx, locks_key, live, now, released)
    if #released > 0 or served then announce(channel, configurator_id, live, released, now) end
    publish_waiting(ctx, live)
    return cjson.encode({ s = 'ENDED', holder = takeover.h, released = released })
  elseif #gone > 0 then
    redis.call('HSET', takeovers_key, field, cjson.encode(takeover))
  end
end
local handed = hand_over(ctx, locks_key, live, now, field, takeover, released)
local served = false
if #released > 0 then served = serve(ctx, locks_key, live, now, released) end
if #released > 0 or served or handed then announce(channel, configurator_id, live, released, now) end
publish_waiting(ctx, live)
return cjson.encode({ s = 'RESOLVED', handed = handed, holder = takeover.h, released = released })
