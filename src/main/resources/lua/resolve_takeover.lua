-- resolve_takeover: the consent window of a pending take-over ended without an answer
-- (docs/protocol.md §13): no answer counts as yes. Run by any node's sweep; the request is gone
-- after the first run, so the hand-over happens once whichever node runs it.
--
-- KEYS[1] locks         hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2..5]            lines, line, waiters, takeovers (see waitlines_lib.lua)
-- ARGV[1] field         ARGV[2] configuratorId
-- ARGV[3] lockChannel   ARGV[4] leaseMs   ARGV[5] waitChannel
-- Reply (JSON): {s='GONE'} | {s='NOT_DUE', deadline} | {s='RESOLVED', handed, holder, released=[...]}
local locks_key, takeovers_key = KEYS[1], KEYS[5]
local field, configurator_id, channel = ARGV[1], ARGV[2], ARGV[3]

local pending = redis.call('HGET', takeovers_key, field)
if not pending then return cjson.encode({ s = 'GONE' }) end
local takeover = cjson.decode(pending)
local now = now_ms()
if takeover.d > now then return cjson.encode({ s = 'NOT_DUE', deadline = takeover.d }) end

local released = {}
local live, book = load_live(locks_key, now, released)
local ctx = waiting_context(KEYS, 2, ARGV, 4, configurator_id, book)
local handed = hand_over(ctx, locks_key, live, now, field, takeover, released)
local served = false
if #released > 0 then served = serve(ctx, locks_key, live, now, released) end
if #released > 0 or served or handed then announce(channel, configurator_id, live, released, now) end
publish_waiting(ctx, live)
return cjson.encode({ s = 'RESOLVED', handed = handed, holder = takeover.h, released = released })
