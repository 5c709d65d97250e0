-- Shared helpers of the scripts. The loader (LuaScript) puts this file in front of every
-- script, so each script run stays one self-contained EVAL.
--
-- A lock is one field of the configurator's locks hash; its value is a JSON record:
--   type, cfg, item, page   the resource ('item'/'page' only for item sub-pages)
--   u, n                    holder user id and display name
--   t                       fencing token (string: a double would lose digits in cjson)
--   a, e                    acquiredAt and expiresAt, epoch milliseconds (Redis TIME)
--   k                       keepers: socketId -> nodeId, the sockets that keep the lock alive
--   q                       socketId -> number of the last lock request of that socket that granted
--                           or re-entered it (numbers increase per node, so per socket): an idle
--                           release spares a keeper whose request came after the idle decision
--   r                       socketId -> number of the lock request that made the socket a keeper: a
--                           request the server gave up on (timeout) is undone by that number
-- Field names: 'cfg' (configurator), 'var' (variables), 'i:<itemId>:<page>' (item sub-page).
-- Fields starting with '#' are bookkeeping ('#seq': the last fencing token handed out; '#sched':
-- a time (ms) by which the lease-expiries sorted set has this configurator looked at, so that a grant
-- whose lease ends later need not schedule a look of its own).

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- The table of docs/protocol.md §2 as one rule: the configurator conflicts with everything in it,
-- variables only with variables, an item page only with the same page of the same item.
local function conflicts(requested, held)
  if requested == 'cfg' or held == 'cfg' then return true end
  if requested == 'var' or held == 'var' then return requested == held end
  return requested == held
end

-- What watchers may see of a lock: no token, no keepers.
local function public_view(lock)
  return { type = lock.type, cfg = lock.cfg, item = lock.item, page = lock.page,
           u = lock.u, n = lock.n, a = lock.a, e = lock.e }
end

-- The token rides along for the audit log of the node that caused the release; clients never see it.
local function released_entry(lock, reason, except_socket)
  local view = public_view(lock)
  view.t = lock.t
  return { lock = view, reason = reason, except = except_socket }
end

-- Every live lock of the configurator by field. Expired ones are deleted on the way and added to
-- 'released' with reason 'expired': an expired lease is gone for every decision. O(locks held).
local function load_live(locks_key, now, released)
  local flat = redis.call('HGETALL', locks_key)
  local live = {}
  for i = 1, #flat, 2 do
    local field = flat[i]
    if string.sub(field, 1, 1) ~= '#' then
      local lock = cjson.decode(flat[i + 1])
      if lock.e > now then
        live[field] = lock
      else
        redis.call('HDEL', locks_key, field)
        released[#released + 1] = released_entry(lock, 'expired', '')
      end
    end
  end
  return live
end

local function has_keepers(lock)
  return next(lock.k) ~= nil
end

-- The socket keeps the lock from now on, by lock request 'request' (see q and r above).
local function keep(lock, socket_id, node_id, request)
  lock.q = lock.q or {}
  lock.r = lock.r or {}
  if lock.k[socket_id] == nil then lock.r[socket_id] = request end
  lock.k[socket_id] = node_id
  lock.q[socket_id] = request
end

local function unkeep(lock, socket_id)
  lock.k[socket_id] = nil
  if lock.q then lock.q[socket_id] = nil end
  if lock.r then lock.r[socket_id] = nil end
end

-- Whether a grant whose lease ends at 'ends' needs its own entry in the lease-expiries set: only
-- when no look at the configurator is known to be scheduled before it ('#sched'). Records 'ends' as
-- the new '#sched' when it does; the caller then runs schedule_expiry with it.
local function needs_schedule(locks_key, now, ends)
  local scheduled = tonumber(redis.call('HGET', locks_key, '#sched') or '0')
  if scheduled > now and scheduled <= ends then return false end
  redis.call('HSET', locks_key, '#sched', string.format('%d', ends))
  return true
end

-- Keeps the hash alive at least as long as its longest lease, and '#seq' a while after.
local function extend_key(locks_key, lease_ms)
  redis.call('PEXPIRE', locks_key, lease_ms + 60000)
end

-- Announces a change of the configurator to every node: the whole live state plus the releases.
-- Published from inside the script run that made the change, so no change goes unannounced.
local function announce(channel, configurator_id, live, released)
  local views = {}
  for _, lock in pairs(live) do views[#views + 1] = public_view(lock) end
  redis.call('PUBLISH', channel, cjson.encode({ c = configurator_id, locks = views, released = released, ts = now_ms() }))
end

-- ---------------------------------------------------------------------------------------------
-- Guards of REST writes (docs/protocol.md §7, §8). A write script runs its guard and its write in the same
-- run, so no grant can come between the check and the write. The guard comes as JSON (ARGV):
--   kind   'configurator' | 'item' | 'item-full' | 'page' | 'variables' | 'none' (internal writes)
--   item   the item id ('page', 'item', 'item-full'); page the page ('page')
--   u      the writer's user id; token  '' or the Lock-Token the writer sent
-- 'subtree' is a set of item ids (strings) for 'item-full': the item and every item below it.

-- Whether another user's lock in 'field' refuses a write under this guard (table of §8).
local function guard_blocks(guard, field, subtree)
  local kind = guard.kind
  if kind == 'none' then return false end
  if field == 'cfg' or kind == 'configurator' then return true end
  if kind == 'variables' then return field == 'var' end
  if kind == 'page' then return field == 'i:' .. guard.item .. ':' .. guard.page end
  if kind == 'item-full' then
    local item = string.match(field, '^i:(%d+):')
    return item ~= nil and subtree[item] == true
  end
  return false -- 'item': only the configurator lock refuses it
end

-- The writer's own locks whose token a Lock-Token may name: those that cover the write (§7).
local function covering_fields(guard)
  if guard.kind == 'page' then return { 'i:' .. guard.item .. ':' .. guard.page, 'cfg' } end
  if guard.kind == 'variables' then return { 'var', 'cfg' } end
  return { 'cfg' }
end

-- Which of two blockers a refusal names: the configurator lock, then variables, then a page.
local function wider(field, than)
  local function rank(f) if f == 'cfg' then return 0 elseif f == 'var' then return 1 else return 2 end end
  if rank(field) ~= rank(than) then return rank(field) < rank(than) end
  return field < than
end

-- Runs the guard on the live locks. nil: the write may go ahead. Else the refusal, as a reply:
-- {s='LOCKED', lock=<the blocking lock, public view>} (423), then {s='STALE_TOKEN'} (412).
local function check_guard(live, guard, subtree)
  if guard.kind == 'none' then return nil end
  local blocking, blocking_field = nil, nil
  for field, lock in pairs(live) do
    if lock.u ~= guard.u and guard_blocks(guard, field, subtree) then
      if blocking == nil or wider(field, blocking_field) then blocking, blocking_field = lock, field end
    end
  end
  if blocking ~= nil then return { s = 'LOCKED', lock = public_view(blocking) } end
  if guard.token ~= nil and guard.token ~= '' then
    for _, field in ipairs(covering_fields(guard)) do
      local own = live[field]
      if own ~= nil and own.u == guard.u and own.t == guard.token then return nil end
    end
    return { s = 'STALE_TOKEN' }
  end
  return nil
end

-- Loads the live locks (announcing leases found expired on the way) and runs the guard.
-- Returns the refusal reply or nil, and the live locks.
local function run_guard(locks_key, guard, subtree, lock_channel, configurator_id)
  local released = {}
  local live = load_live(locks_key, now_ms(), released)
  if #released > 0 then announce(lock_channel, configurator_id, live, released) end
  return check_guard(live, guard, subtree or {}), live
end

-- Announces one successful write to every node (content-changed, docs/protocol.md §8).
local function content_changed(channel, configurator_id, entity, id, op)
  redis.call('PUBLISH', channel, cjson.encode({ c = configurator_id, entity = entity, id = id, op = op }))
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
