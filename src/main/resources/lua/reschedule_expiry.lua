-- reschedule_expiry: after a reaper ran reap_expired_locks on an entry it saw due at 'seen', moves
-- the entry to the next lease end, or drops it when no lock is left. If a grant changed the entry
-- meanwhile (schedule_expiry), the entry stays, lowered to 'next' if that is earlier.
--
-- KEYS[1] expiries  sorted set: configuratorId -> when to look (ms)
-- ARGV[1] configuratorId
-- ARGV[2] seen      the score the reaper saw
-- ARGV[3] next      the earliest lease end left, 0 = none
-- Reply: 1 if the entry was changed, else 0
local current = redis.call('ZSCORE', KEYS[1], ARGV[1])
local seen, next_at = tonumber(ARGV[2]), tonumber(ARGV[3])
if current ~= false and tonumber(current) == seen then
  if next_at == 0 then
    redis.call('ZREM', KEYS[1], ARGV[1])
  else
    redis.call('ZADD', KEYS[1], next_at, ARGV[1])
  end
  return 1
end
if next_at > 0 and (current == false or next_at < tonumber(current)) then
  redis.call('ZADD', KEYS[1], next_at, ARGV[1])
  return 1
end
return 0
