-- delete_configurator: guarded delete of a configurator (guard 'configurator') with all its data
-- and locks. The deleter's own locks in it are released with reason 'deleted' and announced (nobody
-- else can hold one: the guard would have refused). Its waiting lines and take-over requests end,
-- and their users are told NOT_FOUND. Cost: O(its locks and waiting lines), whatever its size: its
-- records are set aside under their deleted names (RENAME is O(1)) and the rest is UNLINKed (freed
-- off Redis's main thread), so that deleting a large configurator does not keep Redis busy. The node
-- then takes the set-aside ids out of the global indexes in batches (catalog/DeletedConfigurators).
--
-- KEYS[1] configurator      hash: the configurator's record; absent = no such configurator
-- KEYS[2] locks             hash of the configurator's locks (see locks_lib.lua)
-- KEYS[3] items             hash: itemId -> item record
-- KEYS[4] children          hash: itemId -> JSON array of child item ids
-- KEYS[5] itemEntries       hash: '<itemId>:<page>' -> JSON array of entry ids
-- KEYS[6] filters           KEYS[7] dependencies  KEYS[8] attributeValues  KEYS[9] variables
--                           hashes: entryId -> entry record
-- ARGV[1] guard             JSON (see guards_lib.lua)
-- ARGV[2] configuratorId
-- ARGV[3] lockChannel       ARGV[4] contentChannel
-- ARGV[5] mayDeleteAny      '1' when the deleter is an admin; else only the creator (createdBy = guard.u) may
-- KEYS[10..13], ARGV[6..7]  waiting lines (waitlines_lib.lua)
-- KEYS[14..18]  where items, filters, dependencies, attributeValues and variables are set aside
--               (absent before: a configurator is deleted once)
-- KEYS[19]      string: the configurator is deleted and not yet cleaned up; its id is in use until then
-- Reply (JSON): {s='OK', released}
--             | {s='NOT_FOUND'} | {s='FORBIDDEN'}
--             | {s='LOCKED', lock, released} | {s='STALE_TOKEN', released} | {s='GIVEN_UP', released}
--             released: the locks this run released (locks_lib.lua released_entry), reason 'deleted' or, for
--             leases it found expired, 'expired'; the node counts and audits them
local configurator_key, locks_key, items_key, children_key, item_entries_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local filters_key, dependencies_key, attribute_values_key, variables_key = KEYS[6], KEYS[7], KEYS[8], KEYS[9]
local guard, configurator_id = cjson.decode(ARGV[1]), ARGV[2]
local lock_channel, content_channel, may_delete_any = ARGV[3], ARGV[4], ARGV[5]

if redis.call('EXISTS', configurator_key) == 0 then return reply({ s = 'NOT_FOUND' }) end
-- After 404 (an unknown configurator is 404 for everybody), before the guard (403 before 423).
if may_delete_any ~= '1' and redis.call('HGET', configurator_key, 'createdBy') ~= guard.u then
  return reply({ s = 'FORBIDDEN' })
end
local refusal, live, now, book, expired = run_guard(locks_key, guard, nil, lock_channel, configurator_id)
local waiting = waiting_context(KEYS, 10, ARGV, 6, configurator_id, book)
if refusal ~= nil then
  serve_expired(waiting, locks_key, live, now, expired, lock_channel, configurator_id)
  refusal.released = expired
  return reply(refusal)
end

local released = {}
for field, lock in pairs(live) do
  if lock.u == guard.u then
    released[#released + 1] = released_entry(lock, 'deleted', '')
    live[field] = nil
  end
end
if #released > 0 then announce(lock_channel, configurator_id, live, released, now) end
end_lines_of(waiting, nil)
publish_waiting(waiting, live)

for i, records_key in ipairs({ items_key, filters_key, dependencies_key, attribute_values_key, variables_key }) do
  if redis.call('EXISTS', records_key) == 1 then redis.call('RENAME', records_key, KEYS[13 + i]) end
end
redis.call('SET', KEYS[19], '1')
local deleted = { s = 'OK', released = released }
for _, entry in ipairs(expired) do released[#released + 1] = entry end
redis.call('UNLINK', configurator_key, locks_key, children_key, item_entries_key, unpack(KEYS, 10, 13))
content_changed(content_channel, configurator_id, 'configurator', configurator_id, 'deleted')
return reply(deleted)
