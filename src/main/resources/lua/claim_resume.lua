-- claim_resume: takes a resume record, once, for its own user, while its socket is gone.
--
-- KEYS[1] resume     hash {socketId, userId, nodeId, state}; state 'live' or 'dropped'
-- ARGV[1] userId     the user asking to resume
-- ARGV[2] socketGone '1' when the socket is known gone: its node says so, or does not answer for it
-- Reply: the old socketId, or false (unknown, expired, another user's, or its socket still lives)
local record = redis.call('HMGET', KEYS[1], 'socketId', 'userId', 'state')
local socket_id, user_id, state = record[1], record[2], record[3]
if not socket_id or user_id ~= ARGV[1] then return false end
if state ~= 'dropped' and ARGV[2] ~= '1' then return false end
redis.call('DEL', KEYS[1])
return socket_id
