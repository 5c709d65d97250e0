-- stop_waiting: a user leaves the line of a resource (docs/protocol.md §14); those behind move up,
-- and the next one is served if the resource is free for them. No-op when the user was not in it.
--
-- KEYS[1] locks         hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2..5]            lines, line, waiters, takeovers (see waitlines_lib.lua)
-- ARGV[1] field         ARGV[2] configuratorId  ARGV[3] userId
-- ARGV[4] lockChannel   ARGV[5] leaseMs   ARGV[6] waitChannel
-- ARGV[7] socketId      the socket that asked: the user's others are told by their nodes
-- Reply (JSON): {s='LEFT'} | {s='NOT_WAITING'}
local locks_key = KEYS[1]
local field, configurator_id, user_id, channel = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local now = now_ms()
write_even_when_full(locks_key)
local released = {}
local live, book = load_live(locks_key, now, released)
local ctx = waiting_context(KEYS, 2, ARGV, 5, configurator_id, book)
local left = leave_line(ctx, field, user_id, nil, 'stopped', ARGV[7])
local served = false
if left or #released > 0 then served = serve(ctx, locks_key, live, now, released, field) end
if #released > 0 or served then announce(channel, configurator_id, live, released, now) end
publish_waiting(ctx, live)
if left then return cjson.encode({ s = 'LEFT' }) end
return cjson.encode({ s = 'NOT_WAITING' })
