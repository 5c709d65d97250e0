-- create_configurator: writes a new configurator's record and announces it. Unguarded: nobody can
-- hold a lock in a configurator that does not exist yet.
--
-- KEYS[1] configurator    hash: the configurator's record
-- ARGV[1] configuratorId  ARGV[2] name  ARGV[3] createdAt (ISO-8601)
-- ARGV[4] contentChannel  pub/sub channel of content-changed events
-- ARGV[5] createdBy       user id of the creator ('' = made by the server itself: no creator)
-- ARGV[6] runBy           the last moment (ms, Redis's clock) the create may run: its node answers 503
--                         after that and has told its writer nothing was written (writes fail closed)
-- KEYS[2], ARGV[7], ARGV[8] only with an Idempotency-Key (idempotency_lib.lua): the key's record,
--                         the request's fingerprint, the record's TTL in seconds
-- Reply (JSON): {s='OK', record={id, name, createdAt, createdBy?}} | {s='KEY_REUSED'} | {s='GIVEN_UP'};
--             a retry's reply carries gone=true when the configurator was deleted since (idempotency_lib.lua)
local configurator_key = KEYS[1]
local configurator_id, name, created_at, content_channel, created_by = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
if now_ms() > tonumber(ARGV[6]) then return reply({ s = 'GIVEN_UP' }) end
local replayed = idempotent_replay(KEYS[2], ARGV[7], function()
  return redis.call('EXISTS', configurator_key) == 1
end)
if replayed ~= nil then return replayed end

redis.call('HSET', configurator_key, 'id', configurator_id, 'name', name, 'createdAt', created_at)
if created_by ~= '' then redis.call('HSET', configurator_key, 'createdBy', created_by) end
content_changed(content_channel, configurator_id, 'configurator', configurator_id, 'created')
local record = { id = configurator_id, name = name, createdAt = created_at }
if created_by ~= '' then record.createdBy = created_by end
return idempotent_answer(KEYS[2], ARGV[7], ARGV[8], { s = 'OK', record = record })
