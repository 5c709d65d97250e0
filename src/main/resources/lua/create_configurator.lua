-- create_configurator: writes a new configurator's record and announces it. Unguarded: nobody can
-- hold a lock in a configurator that does not exist yet.
--
-- KEYS[1] configurator    hash: the configurator's record
-- ARGV[1] configuratorId  ARGV[2] name  ARGV[3] createdAt (ISO-8601)
-- ARGV[4] contentChannel  pub/sub channel of content-changed events
-- KEYS[2], ARGV[5], ARGV[6] only with an Idempotency-Key (idempotency_lib.lua): the key's record,
--                         the request's fingerprint, the record's TTL in seconds
-- Reply (JSON): {s='OK', record={id, name, createdAt}} | {s='KEY_REUSED'}
local configurator_key = KEYS[1]
local configurator_id, name, created_at, content_channel = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local replayed = idempotent_replay(KEYS[2], ARGV[5])
if replayed ~= nil then return replayed end

redis.call('HSET', configurator_key, 'id', configurator_id, 'name', name, 'createdAt', created_at)
content_changed(content_channel, configurator_id, 'configurator', configurator_id, 'created')
local record = { id = configurator_id, name = name, createdAt = created_at }
return idempotent_answer(KEYS[2], ARGV[5], ARGV[6], { s = 'OK', record = record })
