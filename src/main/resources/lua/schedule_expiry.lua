-- schedule_expiry: tells the reapers when to look at a configurator next. Lowers the entry to
-- the new lease end; an entry already due (a reaper may be on it) is moved to the new lease end
-- too, so that the reaper's reschedule (reschedule_expiry) sees it changed and cannot drop it.
--
-- KEYS[1] expiries  sorted set: configuratorId -> when to look (ms)
-- ARGV[1] configuratorId
-- ARGV[2] expiresAt (ms)
-- Reply: 1 if the entry was written, else 0
local current = redis.call('ZSCORE', KEYS[1], ARGV[1])
local at = tonumber(ARGV[2])
local now = now_ms()
if current == false or tonumber(current) > at or tonumber(current) <= now then
  redis.call('ZADD', KEYS[1], at, ARGV[1])
  return 1
end
return 0
