-- reap_expired_locks: releases and announces (reason 'expired') every lease of the configurator
-- that ran out, e.g. because the node that renewed it died. Run by any node's reaper.
--
-- KEYS[1] locks          hash of the configurator's locks (see locks_lib.lua)
-- ARGV[1] configuratorId ARGV[2] channel
-- KEYS[2..5], ARGV[3..4] waiting lines (waitlines_lib.lua; optional): the sockets of a dead node are
--                        forgotten wherever they wait or ask, and every line and take-over whose
--                        resource is free is served (also those freed unseen by a write's guard)
-- Reply (JSON): {next=<earliest expiresAt (ms) of the locks left, 0 when none>, released=[<released entry>...]}
-- The caller moves the configurator's entry to 'next' (reschedule_expiry); '#sched' says so here
-- already, and is dropped with the last lock, so that the next grant schedules a look again.
local locks_key = KEYS[1]
local configurator_id, channel = ARGV[1], ARGV[2]

local now = now_ms()
write_even_when_full(locks_key)
local released = {}
local live, book = load_live(locks_key, now, released)
local waiting = waiting_context(KEYS, 2, ARGV, 3, configurator_id, book)
forget_dead_waiters(waiting, now)
local served = serve(waiting, locks_key, live, now, nil)
if #released > 0 or served then announce(channel, configurator_id, live, released, now) end

local earliest = 0
for _, lock in pairs(live) do
  if earliest == 0 or lock.e < earliest then earliest = lock.e end
end
if earliest == 0 then
  redis.call('HDEL', locks_key, '#sched')
else
  redis.call('HSET', locks_key, '#sched', string.format('%d', earliest))
end
return cjson.encode({ next = earliest, released = released })
