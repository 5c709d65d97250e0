-- Helpers of the catalog's write scripts: announcing a write, lists of ids, the reply.

-- Announces one successful write to every node (content-changed, docs/protocol.md §8).
local function content_changed(channel, configurator_id, entity, id, op)
  redis.call('PUBLISH', channel, cjson.encode({ c = configurator_id, entity = entity, id = id, op = op }))
end

-- Whether an entry's item still exists (a variable has none). A deleted item's entries stay in their
-- hash until the node has cleaned up after the delete (delete_item.lua): they are gone with their item.
local function entry_item_exists(items_key, record)
  return record.itemId == nil or redis.call('HEXISTS', items_key, record.itemId) == 1
end

-- Lists of ids kept as a JSON array in one hash field (children of an item, entries of a page);
-- an empty list is no field. Ids are strings: cjson would round large numbers.
local function list_get(key, field)
  local raw = redis.call('HGET', key, field)
  if not raw then return {} end
  return cjson.decode(raw)
end

local function list_put(key, field, list)
  if #list == 0 then redis.call('HDEL', key, field) else redis.call('HSET', key, field, cjson.encode(list)) end
end

local function list_add(key, field, id)
  local list = list_get(key, field)
  list[#list + 1] = id
  list_put(key, field, list)
end

local function list_remove(key, field, id)
  local kept = {}
  for _, member in ipairs(list_get(key, field)) do
    if member ~= id then kept[#kept + 1] = member end
  end
  list_put(key, field, kept)
end

local function reply(t)
  return cjson.encode(t)
end
