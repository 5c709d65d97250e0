-- Guards of REST writes (docs/protocol.md §7, §8). Loaded after locks_lib.lua. A write script runs
-- its guard and its write in the same run, so no grant can come between the check and the write.
-- The guard comes as JSON (ARGV):
--   kind   'configurator' | 'item' | 'item-full' | 'page' | 'variables' | 'none' (internal writes)
--   item   the item id ('page', 'item', 'item-full'); page the page ('page')
--   u      the writer's user id; token  '' or the Lock-Token the writer sent
--   runBy  the last moment (epoch ms, this clock) the write may run: its node answers 503 once it
--          stops waiting for the reply, so a write that reaches Redis later (a frozen Redis, a
--          stalled connection) must write nothing (§8)
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

-- Runs the guard on the live locks at 'now'. nil: the write may go ahead. Else the refusal, as a
-- reply: {s='GIVEN_UP'} (its node no longer waits for it), then {s='LOCKED', lock=<the widest
-- blocking lock, public view>} (423), then {s='STALE_TOKEN'} (412).
local function check_guard(live, guard, subtree, now)
  if guard.kind == 'none' then return nil end
  if guard.runBy ~= nil and now > guard.runBy then return { s = 'GIVEN_UP' } end
  local blocking = widest_blocker(live, function(field, lock)
    return lock.u ~= guard.u and guard_blocks(guard, field, subtree)
  end)
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

-- Loads the live locks (announcing leases found expired on the way) and runs the guard, for a write
-- that goes on to change locks and serve the waiting lines in the same run (deletes). Returns the
-- refusal reply or nil, the live locks, the time of the decision, the locks hash's bookkeeping, and
-- the expired leases it released: the write serves the lines they unblock with its own (§14).
local function run_guard(locks_key, guard, subtree, lock_channel, configurator_id)
  local expired = {}
  local now = now_ms()
  local live, book = load_live(locks_key, now, expired)
  if #expired > 0 then announce(lock_channel, configurator_id, live, expired, now) end
  return check_guard(live, guard, subtree or {}, now), live, now, book, expired
end

-- Runs the guard for a write that changes no lock and has no waiting lines at hand. A lease found
-- expired counts as gone for the decision but stays in the hash: its release is left to the reaper
-- or the next lock script, which grant it to the head of its line in that same step (§14). Released
-- here, the writer's next lock request could take what the line was waiting for.
local function run_guard_leaving_expired(locks_key, guard)
  local now = now_ms()
  return check_guard(live_of(locks_key, read_locks(locks_key), now, nil), guard, {}, now)
end
