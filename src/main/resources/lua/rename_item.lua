-- rename_item: guarded rename of an item (guard 'item': only the configurator lock refuses it),
-- check and write in one run. Cost: O(locks held in the configurator).
--
-- KEYS[1] locks           hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2] items           hash: itemId -> item record
-- ARGV[1] guard           JSON (see guards_lib.lua)
-- ARGV[2] configuratorId  ARGV[3] itemId  ARGV[4] name
-- ARGV[5] contentChannel
-- Reply (JSON): {s='OK', record} | {s='NOT_FOUND'} | {s='LOCKED', lock} | {s='STALE_TOKEN'} | {s='GIVEN_UP'}
local locks_key, items_key = KEYS[1], KEYS[2]
local guard, configurator_id, item_id, name = cjson.decode(ARGV[1]), ARGV[2], ARGV[3], ARGV[4]
local content_channel = ARGV[5]

local raw = redis.call('HGET', items_key, item_id)
if not raw then return reply({ s = 'NOT_FOUND' }) end
local refusal = run_guard_leaving_expired(locks_key, guard)
if refusal ~= nil then return reply(refusal) end

local record = cjson.decode(raw)
record.name = name
redis.call('HSET', items_key, item_id, cjson.encode(record))
content_changed(content_channel, configurator_id, 'item', item_id, 'updated')
return reply({ s = 'OK', record = record })
