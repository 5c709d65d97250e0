-- mark_in_flight: marks a keyed create as in progress (docs/protocol.md §8), so that a duplicate sent
-- meanwhile is answered 409. Only while its node still waits for the answer: a mark that reaches
-- Redis after runBy sets nothing, for its node has answered 503 by then, and a retry of that 503 must
-- not find a mark of a request that is no longer in progress.
--
-- KEYS[1] inFlight   string: the mark of the request in progress, with a time to live
-- ARGV[1] mark       this request's own value, so that it takes away only its own mark (clear_in_flight)
-- ARGV[2] ttlMillis  how long the mark lasts when its node dies before taking it away
-- ARGV[3] runBy      the last moment (epoch ms, Redis's clock) the mark may be set
-- Reply: 1 marked | 0 another request holds the mark | -1 too late: nothing was set
if now_ms() > tonumber(ARGV[3]) then return -1 end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0
