-- update_entry: changes some fields of an entry (guard 'page' of the entry's item, or 'variables'),
-- check and write in one run. Cost: O(locks held in the configurator).
--
-- KEYS[1] locks           hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2] items           hash: itemId -> item record (an entry whose item is gone is gone with it)
-- KEYS[3] entries         hash: entryId -> entry record, of this entity
-- ARGV[1] guard           JSON (see guards_lib.lua)
-- ARGV[2] configuratorId
-- ARGV[3] entity          'filter' | 'dependency' | 'attribute-value' | 'variable'
-- ARGV[4] entryId
-- ARGV[5] fields          JSON object: the fields to change (strings)
-- ARGV[6] referenceField  '' or the field that names an item (a dependency's 'targetItemId'), among the changes
-- ARGV[7] referencedItem  '' or the item id that field will hold: when it differs from the entry's stored value
--                         it must be an item of the configurator; an unchanged one may name a deleted item
--                         (a dangling reference, docs/rest-api.md), so that a GET's body can be sent back
-- ARGV[8] contentChannel
-- Reply (JSON): {s='OK', record} | {s='NOT_FOUND'} | {s='INVALID', message} | {s='LOCKED', lock}
--             | {s='STALE_TOKEN'} | {s='GIVEN_UP'}
local locks_key, items_key, entries_key = KEYS[1], KEYS[2], KEYS[3]
local guard, configurator_id, entity, entry_id = cjson.decode(ARGV[1]), ARGV[2], ARGV[3], ARGV[4]
local changes, reference_field, referenced = cjson.decode(ARGV[5]), ARGV[6], ARGV[7]
local content_channel = ARGV[8]

local raw = redis.call('HGET', entries_key, entry_id)
if not raw then return reply({ s = 'NOT_FOUND' }) end
local record = cjson.decode(raw)
if guard.item ~= nil and record.itemId ~= guard.item then return reply({ s = 'NOT_FOUND' }) end
if not entry_item_exists(items_key, record) then return reply({ s = 'NOT_FOUND' }) end
if referenced ~= '' and tostring(record[reference_field]) ~= referenced
    and redis.call('HEXISTS', items_key, referenced) == 0 then
  return reply({ s = 'INVALID', message = 'item ' .. referenced .. ' is not an item of configurator ' .. configurator_id })
end
local refusal = run_guard_leaving_expired(locks_key, guard)
if refusal ~= nil then return reply(refusal) end

for name, value in pairs(changes) do record[name] = value end
redis.call('HSET', entries_key, entry_id, cjson.encode(record))
content_changed(content_channel, configurator_id, entity, entry_id, 'updated')
return reply({ s = 'OK', record = record })
