-- mark_dropped: the record's socket dropped, so any node may take its locks by a resume for the
-- grace period, without asking this node whether it is still open. A record being resumed keeps that
-- state, and a give-back (give_back_resume) then returns it to 'dropped'. A record that is gone (a
-- resume spent it, on another node maybe before this node saw the socket end, or it ran out) is not
-- written again: a record without its socket would only make a stopping node wait for it.
--
-- KEYS[1] resume   hash {socketId, userId, nodeId, state[, was, by]} (see claim_resume.lua)
-- ARGV[1] graceMs  how long the socket may still be resumed
-- Reply: 1 if marked, 0 if there was no record
write_even_when_full(KEYS[1])
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return 0 end
if state == 'resuming' then
  redis.call('HSET', KEYS[1], 'was', 'dropped')
else
  redis.call('HSET', KEYS[1], 'state', 'dropped')
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
