-- add_item: adds an item to a configurator's tree, if the configurator (and the parent item, when
-- one is named) exists in it.
--
-- KEYS[1] configurator  hash: the configurator's record; absent = no such configurator
-- KEYS[2] items         hash: itemId -> item record (JSON)
-- ARGV[1] itemId
-- ARGV[2] record        the item as JSON
-- ARGV[3] parentItemId  '' for a top-level item
-- Reply: 1 added, 0 no such configurator or parent
local configurator_key, items_key = KEYS[1], KEYS[2]
local item_id, record, parent_id = ARGV[1], ARGV[2], ARGV[3]

if redis.call('EXISTS', configurator_key) == 0 then return 0 end
if parent_id ~= '' and redis.call('HEXISTS', items_key, parent_id) == 0 then return 0 end
redis.call('HSET', items_key, item_id, record)
return 1
