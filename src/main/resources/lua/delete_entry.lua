-- delete_entry: deletes an entry (guard 'page' of the entry's item, or 'variables'), check and
-- write in one run. Cost: O(locks held + entries of that item's page).
--
-- KEYS[1] locks           hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2] entries         hash: entryId -> entry record, of this entity
-- KEYS[3] itemEntries     hash: '<itemId>:<page>' -> JSON array of entry ids
-- KEYS[4] items           hash: itemId -> item record (an entry whose item is gone is gone with it)
-- ARGV[1] guard           JSON (see guards_lib.lua)
-- ARGV[2] configuratorId
-- ARGV[3] entity          'filter' | 'dependency' | 'attribute-value' | 'variable'
-- ARGV[4] entryId
-- ARGV[5] page            '' for a variable
-- ARGV[6] contentChannel
-- Reply (JSON): {s='OK'} | {s='NOT_FOUND'} | {s='LOCKED', lock} | {s='STALE_TOKEN'} | {s='GIVEN_UP'}
local locks_key, entries_key, item_entries_key, items_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local guard, configurator_id, entity, entry_id, page = cjson.decode(ARGV[1]), ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local content_channel = ARGV[6]

local raw = redis.call('HGET', entries_key, entry_id)
if not raw then return reply({ s = 'NOT_FOUND' }) end
local record = cjson.decode(raw)
if guard.item ~= nil and record.itemId ~= guard.item then return reply({ s = 'NOT_FOUND' }) end
if not entry_item_exists(items_key, record) then return reply({ s = 'NOT_FOUND' }) end
local refusal = run_guard_leaving_expired(locks_key, guard)
if refusal ~= nil then return reply(refusal) end

redis.call('HDEL', entries_key, entry_id)
if record.itemId ~= nil then list_remove(item_entries_key, record.itemId .. ':' .. page, entry_id) end
content_changed(content_channel, configurator_id, entity, entry_id, 'deleted')
return reply({ s = 'OK' })
