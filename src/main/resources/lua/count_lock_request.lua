-- count_lock_request: a bounded counter of one user's lock requests in one second window.
-- It never counts past the limit, and the window's key expires by itself.
--
-- KEYS[1] counter   string: lock requests of this user in this second
-- ARGV[1] limit     requests allowed per second
-- Reply: 1 allowed, 0 over the limit
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
if count == 0 then redis.call('PEXPIRE', KEYS[1], 2000) end
return 1
