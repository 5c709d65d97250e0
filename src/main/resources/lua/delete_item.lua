-- delete_item: guarded delete of an item with its sub-tree and their entries (guard 'item-full':
-- refused while another user holds the configurator or any page of an item in the sub-tree). The
-- deleter's own page locks in the sub-tree are released with reason 'deleted' and announced. The
-- lines and take-over requests of the deleted pages end (their users are told NOT_FOUND), and
-- what the release frees goes to whom waits for it, in the same run (docs/protocol.md §14).
-- Cost: O(locks held, waiting lines and the items of the sub-tree), whatever their entries: the
-- entries stay in their hashes and their pages' lists in the item-entries hash, and the node takes
-- them and every id out of the indexes afterwards, in batches (catalog/DeletedItems), from the list of
-- the sub-tree's items this run leaves in KEYS[8]. Until then an entry of a deleted item is gone with its item:
-- the scripts and reads of an entry check that its item exists, and a configurator's tree shows only
-- the entries of its items (read_configurator.lua still reads the leftovers; the node drops them).
--
-- KEYS[1] locks           hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2] items           hash: itemId -> item record {id, name, parentItemId?}
-- KEYS[3] children        hash: itemId -> JSON array of child item ids
-- ARGV[1] guard           JSON (see guards_lib.lua)
-- ARGV[2] configuratorId  ARGV[3] itemId
-- ARGV[4] lockChannel     ARGV[5] contentChannel
-- KEYS[4..7], ARGV[6..7] waiting lines (waitlines_lib.lua)
-- KEYS[8] deletedSubtrees hash: what item deletes left to clean up: '<itemId>:items' -> JSON array of the
--                         ids of its sub-tree's items (see redis/LockKeys)
-- Reply (JSON): {s='OK', released}
--             | {s='NOT_FOUND'} | {s='LOCKED', lock, released} | {s='STALE_TOKEN', released} | {s='GIVEN_UP', released}
--             released: the locks this run released (locks_lib.lua released_entry), reason 'deleted' or, for
--             leases it found expired, 'expired'; the node counts and audits them
local locks_key, items_key, children_key = KEYS[1], KEYS[2], KEYS[3]
local guard, configurator_id, item_id = cjson.decode(ARGV[1]), ARGV[2], ARGV[3]
local lock_channel, content_channel = ARGV[4], ARGV[5]

local raw = redis.call('HGET', items_key, item_id)
if not raw then return reply({ s = 'NOT_FOUND' }) end

-- The sub-tree, breadth first through the children index.
local order, subtree, next_index = { item_id }, { [item_id] = true }, 1
while next_index <= #order do
  for _, child in ipairs(list_get(children_key, order[next_index])) do
    if not subtree[child] then
      subtree[child] = true
      order[#order + 1] = child
    end
  end
  next_index = next_index + 1
end

local refusal, live, now, book, expired = run_guard(locks_key, guard, subtree, lock_channel, configurator_id)
local waiting = waiting_context(KEYS, 4, ARGV, 6, configurator_id, book)
if refusal ~= nil then
  serve_expired(waiting, locks_key, live, now, expired, lock_channel, configurator_id)
  refusal.released = expired
  return reply(refusal)
end

local released = {}
for field, lock in pairs(live) do
  local locked_item = string.match(field, '^i:(%d+):')
  if lock.u == guard.u and locked_item ~= nil and subtree[locked_item] then
    redis.call('HDEL', locks_key, field)
    live[field] = nil
    released[#released + 1] = released_entry(lock, 'deleted', '')
  end
end
-- The lines and take-over requests of the sub-tree's pages, picked from those of the configurator
-- (O(lines)) rather than looked for page by page (O(the sub-tree)).
local gone_pages = {}
if waiting ~= nil and not is_calm(waiting) then
  local seen = {}
  for _, hash in ipairs({ waiting.lines, waiting.takeovers }) do
    for _, field in ipairs(redis.call('HKEYS', hash)) do
      local page_item = string.match(field, '^i:(%d+):')
      if page_item ~= nil and subtree[page_item] and not seen[field] then
        seen[field] = true
        gone_pages[#gone_pages + 1] = field
      end
    end
  end
end
end_lines_of(waiting, gone_pages)
-- The leases the guard found expired were announced already; the lines they unblock are served here.
local freed = {}
for _, entry in ipairs(released) do freed[#freed + 1] = entry end
for _, entry in ipairs(expired) do freed[#freed + 1] = entry end
local served = serve(waiting, locks_key, live, now, freed)
if #released > 0 or served then announce(lock_channel, configurator_id, live, released, now) end
publish_waiting(waiting, live)

-- The items go now, a thousand fields per command. Their pages' lists of entries stay, naming records
-- that are gone with their item for every script and read; the node takes them out afterwards.
for first = 1, #order, 1000 do
  local last = math.min(#order, first + 999)
  redis.call('HDEL', items_key, unpack(order, first, last))
  redis.call('HDEL', children_key, unpack(order, first, last))
end
redis.call('HSET', KEYS[8], item_id .. ':items', cjson.encode(order))
local parent_id = cjson.decode(raw).parentItemId
if parent_id ~= nil and parent_id ~= cjson.null then list_remove(children_key, parent_id, item_id) end

content_changed(content_channel, configurator_id, 'item', item_id, 'deleted')
return reply({ s = 'OK', released = freed })
