-- reserve_waiting_line: counts a line against the lines one user may wait in (docs/protocol.md §14),
-- check and count in one run, so that requests of one user at once on several nodes can never put
-- them in more lines than allowed. A line the user is already in costs nothing more.
--
-- KEYS[1] lines    sorted set '<configuratorId>|<field>' -> when it was counted (ms), 0 once its
--                  wait_for put the user in the line (the caller marks it). It may keep
--                  lines the user left elsewhere (served, gone): when it refuses, the caller drops
--                  those of the settled entries it names that the user no longer waits in, and asks again
-- ARGV[1] entry    '<configuratorId>|<field>'
-- ARGV[2] max      lines the user may be in
-- ARGV[3] ttlMs    how long the set lives after its last use
-- ARGV[4] settleMs an entry counted this long ago has had its wait_for run (or never will); a younger
--                  one may belong to a request still under way, which must not lose its place
-- Reply: {1} counted (or already in) | {0, <settled entry>...} refused: the user is in max lines
local lines_key = KEYS[1]
local entry, max, ttl_ms, settle_ms = ARGV[1], tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
local now = now_ms()

if not redis.call('ZSCORE', lines_key, entry) and redis.call('ZCARD', lines_key) >= max then
  local reply = { 0 }
  for _, settled in ipairs(redis.call('ZRANGEBYSCORE', lines_key, '-inf', now - settle_ms)) do
    reply[#reply + 1] = settled
  end
  return reply
end
redis.call('ZADD', lines_key, now, entry)
redis.call('PEXPIRE', lines_key, ttl_ms)
return { 1 }
