-- What a full Redis still lets a script do. At its maxmemory with the policy noeviction, Redis refuses
-- the commands that may grow it (HSET, SET, ZADD, …), but in a script only while the script has written
-- nothing yet: once it has, a refusal would leave its work half done (Redis 6.2 and 7, and Valkey, for
-- scripts without flags). The scripts that keep what is already held, or end it (lease renewals,
-- releases, the reaper, resumes), must run then, or every lease runs out while Redis is full
-- (docs/operations.md, "Redis settings"). They overwrite what is there or delete, so they begin with a
-- write that changes and grows nothing.

-- A write to the hash 'hash_key' (or to no key at all) that changes nothing: no record is named '#full'.
local function write_even_when_full(hash_key)
  redis.call('HDEL', hash_key, '#full')
end

-- The same for a set 'set_key' (or no key at all): no member is named '#full'.
local function write_even_when_full_in_set(set_key)
  redis.call('SREM', set_key, '#full')
end
