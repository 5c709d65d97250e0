-- add_item: adds an item to a configurator's tree (guard 'configurator', or 'none' for internal
-- writes), check and write in one run. Cost: O(locks held + siblings of the new item).
--
-- KEYS[1] configurator    hash: the configurator's record; absent = no such configurator
-- KEYS[2] locks           hash of the configurator's locks (see locks_lib.lua)
-- KEYS[3] items           hash: itemId -> item record {id, name, parentItemId?}
-- KEYS[4] children        hash: itemId -> JSON array of child item ids
-- ARGV[1] guard           JSON (see guards_lib.lua)
-- ARGV[2] configuratorId  ARGV[3] itemId  ARGV[4] name
-- ARGV[5] parentItemId    '' for a top-level item
-- ARGV[6] contentChannel
-- ARGV[7] maxItems        items the configurator may hold; '0' = no cap (internal writes)
-- KEYS[5], ARGV[8], ARGV[9] only with an Idempotency-Key (idempotency_lib.lua): the key's record,
--                         the request's fingerprint, the record's TTL in seconds
-- Reply (JSON): {s='OK', record} | {s='NOT_FOUND'} | {s='INVALID', message} | {s='LOCKED', lock}
--             | {s='STALE_TOKEN'} | {s='GIVEN_UP'} | {s='KEY_REUSED'}; a retry's reply carries gone=true when the
--             item was deleted since (idempotency_lib.lua)
local configurator_key, locks_key, items_key, children_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local guard, configurator_id, item_id, name, parent_id = cjson.decode(ARGV[1]), ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local content_channel, max_items = ARGV[6], tonumber(ARGV[7])
-- A retry gets the first answer even when the configurator was deleted since (§8).
local replayed = idempotent_replay(KEYS[5], ARGV[8], function()
  return redis.call('HEXISTS', items_key, item_id) == 1
end)
if replayed ~= nil then return replayed end
if redis.call('EXISTS', configurator_key) == 0 then return reply({ s = 'NOT_FOUND' }) end

if parent_id ~= '' and redis.call('HEXISTS', items_key, parent_id) == 0 then
  return reply({ s = 'INVALID', message = 'parentItemId ' .. parent_id .. ' is not an item of configurator ' .. configurator_id })
end
if max_items > 0 and redis.call('HLEN', items_key) >= max_items then
  return reply({ s = 'INVALID', message = 'configurator ' .. configurator_id .. ' already holds ' .. max_items .. ' items, the most allowed' })
end
local refusal = run_guard_leaving_expired(locks_key, guard)
if refusal ~= nil then return reply(refusal) end

local record = { id = item_id, name = name }
if parent_id ~= '' then
  record.parentItemId = parent_id
  list_add(children_key, parent_id, item_id)
end
redis.call('HSET', items_key, item_id, cjson.encode(record))
content_changed(content_channel, configurator_id, 'item', item_id, 'created')
return idempotent_answer(KEYS[5], ARGV[8], ARGV[9], { s = 'OK', record = record })
