-- reserve_waiting_line: counts a line against the lines one user may wait in (docs/protocol.md §14),
-- check and count in one run, so that requests of one user at once on several nodes can never put
-- them in more lines than allowed. A line the user is already in costs nothing more.
--
-- KEYS[1] lines    set of '<configuratorId>|<field>': the lines the user waits in (may hold a few
--                  of lines left elsewhere; the caller drops those and asks again when refused)
-- ARGV[1] entry    '<configuratorId>|<field>'
-- ARGV[2] max      lines the user may be in
-- ARGV[3] ttlMs    how long the set lives after its last use
-- Reply: 1 counted (or already in) | 0 refused: the user is in max lines already
local lines_key = KEYS[1]
local entry, max, ttl_ms = ARGV[1], tonumber(ARGV[2]), ARGV[3]

if redis.call('SADD', lines_key, entry) == 1 and redis.call('SCARD', lines_key) > max then
  redis.call('SREM', lines_key, entry)
  return 0
end
redis.call('PEXPIRE', lines_key, ttl_ms)
return 1
