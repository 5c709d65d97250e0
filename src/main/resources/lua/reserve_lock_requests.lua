-- reserve_lock_requests: hands a node a block of one user's requests (lock requests, REST writes) in one
-- second window.
-- The counter never goes past the limit, so all nodes together never allow more than the limit;
-- the window's key expires by itself.
--
-- KEYS[1] counter   string: requests of this user reserved in this second, over all nodes
-- ARGV[1] limit     requests allowed per second
-- ARGV[2] wanted    how many the node would like to reserve (at least 1)
-- Reply: how many were reserved, 0 .. wanted (0: the window is used up)
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local limit, wanted = tonumber(ARGV[1]), tonumber(ARGV[2])
local granted = math.min(wanted, limit - used)
if granted <= 0 then return 0 end
redis.call('INCRBY', KEYS[1], granted)
if used == 0 then redis.call('PEXPIRE', KEYS[1], 2000) end
return granted
