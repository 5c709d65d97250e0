-- clear_in_flight: a keyed create is over (answered, refused, failed or given up): its mark goes, so
-- that a retry is not told 409 (docs/protocol.md §8). Only its own mark: a concurrent duplicate's
-- stays.
--
-- KEYS[1] inFlight  string: the mark of the request in progress (see mark_in_flight.lua)
-- ARGV[1] mark      the value the request marked with
-- Reply: 1 taken away | 0 it held no mark (never set, expired, or another request's)
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
