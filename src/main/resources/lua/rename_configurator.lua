-- rename_configurator: guarded rename of a configurator (guard 'configurator'), check and write in
-- one run. Cost: O(locks held in the configurator).
--
-- KEYS[1] configurator    hash: the configurator's record; absent = no such configurator
-- KEYS[2] locks           hash of the configurator's locks (see locks_lib.lua)
-- ARGV[1] guard           JSON (see guards_lib.lua)
-- ARGV[2] configuratorId  ARGV[3] name
-- ARGV[4] contentChannel
-- Reply (JSON): {s='OK', record={id,name,createdAt,createdBy}} | {s='NOT_FOUND'} | {s='LOCKED', lock} | {s='STALE_TOKEN'} | {s='GIVEN_UP'}
local configurator_key, locks_key = KEYS[1], KEYS[2]
local guard, configurator_id, name = cjson.decode(ARGV[1]), ARGV[2], ARGV[3]
local content_channel = ARGV[4]

if redis.call('EXISTS', configurator_key) == 0 then return reply({ s = 'NOT_FOUND' }) end
local refusal = run_guard_leaving_expired(locks_key, guard)
if refusal ~= nil then return reply(refusal) end

redis.call('HSET', configurator_key, 'name', name)
content_changed(content_channel, configurator_id, 'configurator', configurator_id, 'updated')
local record = redis.call('HMGET', configurator_key, 'id', 'name', 'createdAt', 'createdBy')
return reply({ s = 'OK', record = { id = record[1], name = record[2], createdAt = record[3], createdBy = record[4] or nil } })
