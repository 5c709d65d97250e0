-- give_back_resume: a resume that failed (the store could not be reached or answer in time) gives
-- its claim back, so that the token is good again for a retry, as it was before (see claim_resume).
-- The record keeps its time to live.
--
-- KEYS[1] resume      hash {socketId, userId, nodeId, state[, was, by]} (see claim_resume.lua)
-- ARGV[1] newSocketId the socket whose resume failed
-- Reply: 1 if the claim was given back, 0 if that socket held none (never claimed, or claimed by another)
local record = redis.call('HMGET', KEYS[1], 'state', 'was', 'by')
if record[1] ~= 'resuming' or record[3] ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', record[2])
redis.call('HDEL', KEYS[1], 'was', 'by')
return 1
