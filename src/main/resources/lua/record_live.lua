-- record_live: the resume record of a socket that asks for locks: whose socket it is, on which node,
-- and that it lives. Written when the socket first asks for a lock, and again when the record ran out
-- while the socket lived. The record and its expiry are written in one step: a node that dies between
-- two commands would leave a record without one, which would outlive its socket for good.
--
-- KEYS[1] resume   hash {socketId, userId, nodeId, state} (see claim_resume.lua)
-- ARGV[1] socketId
-- ARGV[2] userId
-- ARGV[3] nodeId
-- ARGV[4] ttlMs    how long it lives unless renewed: each lease renewal of the socket renews it
-- Reply: 1
redis.call('HSET', KEYS[1], 'socketId', ARGV[1], 'userId', ARGV[2], 'nodeId', ARGV[3], 'state', 'live')
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
