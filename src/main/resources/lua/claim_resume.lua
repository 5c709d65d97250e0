-- claim_resume: takes a resume record for its own user while its socket is gone, for one new socket.
-- The record is not deleted here but marked as being resumed: the resume may still fail (the store
-- out of reach for the move), and then give_back_resume makes the token good again. Only the socket
-- that claimed it may claim it again meanwhile (its retry); the caller deletes it once the locks
-- moved.
--
-- KEYS[1] resume      hash {socketId, userId, nodeId, state[, was, by]}; state 'live', 'dropped' or
--                     'resuming' (then 'was' is the state before, 'by' the socket resuming it)
-- ARGV[1] userId      the user asking to resume
-- ARGV[2] socketGone  '1' when the socket is known gone: its node says so, or does not answer for it
-- ARGV[3] newSocketId the socket that resumes
-- Reply: the old socketId, or false (unknown, expired, another user's, its socket still lives, or
--        another socket is resuming it)
write_even_when_full(KEYS[1])
local record = redis.call('HMGET', KEYS[1], 'socketId', 'userId', 'state', 'by')
local socket_id, user_id, state, by = record[1], record[2], record[3], record[4]
if not socket_id or user_id ~= ARGV[1] then return false end
if state == 'resuming' then
  if by ~= ARGV[3] then return false end
  return socket_id
end
if state ~= 'dropped' and ARGV[2] ~= '1' then return false end
redis.call('HSET', KEYS[1], 'state', 'resuming', 'was', state or 'live', 'by', ARGV[3])
return socket_id
