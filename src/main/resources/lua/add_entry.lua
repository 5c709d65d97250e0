-- add_entry: adds an entry to a page (a filter, dependency or attribute value of an item: guard
-- 'page'; a variable of the configurator: guard 'variables'), check and write in one run.
-- Cost: O(locks held + entries of that item's page).
--
-- KEYS[1] configurator    hash: the configurator's record; absent = no such configurator
-- KEYS[2] locks           hash of the configurator's locks (see locks_lib.lua)
-- KEYS[3] items           hash: itemId -> item record
-- KEYS[4] entries         hash: entryId -> entry record, of this entity
-- KEYS[5] itemEntries     hash: '<itemId>:<page>' -> JSON array of entry ids
-- ARGV[1] guard           JSON (see guards_lib.lua)
-- ARGV[2] configuratorId
-- ARGV[3] entity          'filter' | 'dependency' | 'attribute-value' | 'variable'
-- ARGV[4] entryId
-- ARGV[5] itemId          '' for a variable
-- ARGV[6] page            '' for a variable
-- ARGV[7] fields          JSON object of the entry's own fields (strings)
-- ARGV[8] referencedItem  '' or an item id the entry names, which must be an item of the configurator
-- ARGV[9] contentChannel
-- ARGV[10] maxEntries     entries the page may hold; '0' = no cap (internal writes)
-- KEYS[6], ARGV[11], ARGV[12] only with an Idempotency-Key (idempotency_lib.lua): the key's record,
--                         the request's fingerprint, the record's TTL in seconds
-- Reply (JSON): {s='OK', record} | {s='NOT_FOUND'} | {s='INVALID', message} | {s='LOCKED', lock}
--             | {s='STALE_TOKEN'} | {s='GIVEN_UP'} | {s='KEY_REUSED'}; a retry's reply carries gone=true when the
--             entry was deleted since (idempotency_lib.lua)
local configurator_key, locks_key, items_key, entries_key, item_entries_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local guard, configurator_id, entity, entry_id = cjson.decode(ARGV[1]), ARGV[2], ARGV[3], ARGV[4]
local item_id, page, record, referenced = ARGV[5], ARGV[6], cjson.decode(ARGV[7]), ARGV[8]
local content_channel, max_entries = ARGV[9], tonumber(ARGV[10])
-- A retry gets the first answer even when the configurator or item was deleted since (§8).
local replayed = idempotent_replay(KEYS[6], ARGV[11], function()
  return redis.call('HEXISTS', entries_key, entry_id) == 1
end)
if replayed ~= nil then return replayed end
if item_id == '' then
  if redis.call('EXISTS', configurator_key) == 0 then return reply({ s = 'NOT_FOUND' }) end
elseif redis.call('HEXISTS', items_key, item_id) == 0 then
  return reply({ s = 'NOT_FOUND' })
end

if referenced ~= '' and redis.call('HEXISTS', items_key, referenced) == 0 then
  return reply({ s = 'INVALID', message = 'item ' .. referenced .. ' is not an item of configurator ' .. configurator_id })
end
if max_entries > 0 then
  -- a page's entries: an item page's id list, or the configurator's variables (their own hash)
  local held = item_id == '' and redis.call('HLEN', entries_key) or #list_get(item_entries_key, item_id .. ':' .. page)
  if held >= max_entries then
    return reply({ s = 'INVALID', message = 'the page already holds ' .. max_entries .. ' entries, the most allowed' })
  end
end
local refusal = run_guard_leaving_expired(locks_key, guard)
if refusal ~= nil then return reply(refusal) end

record.id = entry_id
if item_id ~= '' then
  record.itemId = item_id
  list_add(item_entries_key, item_id .. ':' .. page, entry_id)
end
redis.call('HSET', entries_key, entry_id, cjson.encode(record))
content_changed(content_channel, configurator_id, entity, entry_id, 'created')
return idempotent_answer(KEYS[6], ARGV[11], ARGV[12], { s = 'OK', record = record })
