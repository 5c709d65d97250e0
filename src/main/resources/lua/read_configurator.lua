-- read_configurator: one consistent snapshot of a configurator's whole content (read only).
-- Cost: O(its items and entries), inherently; for a moment after an item's delete also O(the deleted
-- item's entries), until the node has cleaned up after it (catalog/DeletedItems).
--
-- KEYS[1] configurator    hash: the configurator's record
-- KEYS[2] items           KEYS[3] filters  KEYS[4] dependencies  KEYS[5] attributeValues
-- KEYS[6] variables       hashes: id -> record (JSON)
-- Reply: an empty array when there is no such configurator; else an array: [id, name, createdAt, createdBy],
--        then the records of items, filters, dependencies, attribute values, variables (one array each)
local configurator = redis.call('HMGET', KEYS[1], 'id', 'name', 'createdAt', 'createdBy')
if not configurator[1] then return {} end
return { configurator, redis.call('HVALS', KEYS[2]), redis.call('HVALS', KEYS[3]), redis.call('HVALS', KEYS[4]),
         redis.call('HVALS', KEYS[5]), redis.call('HVALS', KEYS[6]) }
