-- schedule_expiry: tells the reapers when to look at a configurator next. Lowers the entry to
-- the new lease end. An entry already due stays due: another lease of the configurator may end
-- before the new one (renewed after its look was set, then left by its dead node), and must not wait
-- for it. It is written all the same, to another due moment, so that a reaper already on it sees it
-- changed in its reschedule (reschedule_expiry) and cannot drop it; its next look finds the new lease.
--
-- KEYS[1] expiries  sorted set: configuratorId -> when to look (ms)
-- ARGV[1] configuratorId
-- ARGV[2] expiresAt (ms)
-- Reply: 1 if the entry was written, else 0
local current = redis.call('ZSCORE', KEYS[1], ARGV[1])
local at = tonumber(ARGV[2])
local now = now_ms()
if current ~= false and tonumber(current) <= now then
  local due = now
  if tonumber(current) == now then due = now - 1 end
  redis.call('ZADD', KEYS[1], due, ARGV[1])
  return 1
end
if current == false or tonumber(current) > at then
  redis.call('ZADD', KEYS[1], at, ARGV[1])
  return 1
end
return 0
