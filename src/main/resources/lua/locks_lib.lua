-- Lock records: the helpers of every script that reads or changes a configurator's locks. Loaded
-- after clock_lib.lua. The loader (LuaScript) puts the libraries a script names in front of it, so
-- each script run stays one self-contained EVAL.
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
-- Fields starting with '#' are bookkeeping, read with the locks in the same HGETALL (the 'book'),
-- so that a decision asks Redis nothing it already keeps here:
--   '#seq'    the last fencing token handed out
--   '#sched'  a time (ms) by which the lease-expiries sorted set has this configurator looked at, so
--             that a grant whose lease ends later need not schedule a look of its own
--   '#exp'    a time (ms) the hash is known to live at least until (its TTL was set to it): a grant
--             whose lease ends well before needs no PEXPIRE
--   '#found'  the configurator existed when it was written; delete_configurator deletes its record
--             and this hash together, so while it is here no lock request needs to ask again
--   '#void'   the latest time (ms) until which a given-up lock request of this configurator stays
--             void (cancel_lock_request); the hash lives at least as long ('#exp'), so a lock request
--             looks for its void marker only while this is in the future
--   '#calm'   no waiting line and no take-over in this configurator (waitlines_lib.lua): whoever
--             adds one removes it, so its absence only costs a look

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

-- The one reading of a locks hash: every lock record in hash order as {f=field, lock=record}
-- (expired ones included), and the bookkeeping as a book (see book_set and write_locks).
local function read_locks(locks_key)
  local flat = redis.call('HGETALL', locks_key)
  local records, book = {}, { v = {}, dirty = {} }
  for i = 1, #flat, 2 do
    local field = flat[i]
    if string.sub(field, 1, 1) == '#' then
      book.v[string.sub(field, 2)] = flat[i + 1]
    else
      records[#records + 1] = { f = field, lock = cjson.decode(flat[i + 1]) }
    end
  end
  return records, book
end

-- Runs a command on 'key' with the values of 'args' after it, at most 500 at a time: Lua refuses to
-- unpack some thousands of values, and a socket may keep that many locks in one configurator. Pairs
-- (HSET's field and value) stay together, as 500 is even. Returns the replies that are lists, one
-- after the other (HMGET's values, in the order of 'args').
local function call_in_chunks(command, key, args)
  local replies = {}
  for first = 1, #args, 500 do
    local reply = redis.call(command, key, unpack(args, first, math.min(first + 499, #args)))
    if type(reply) == 'table' then
      for _, value in ipairs(reply) do replies[#replies + 1] = value end
    end
  end
  return replies
end

-- The live locks by field, from what read_locks read: an expired lease is gone for every decision.
-- Expired ones are deleted (HDEL) and added to 'released' with reason 'expired'; with 'released'
-- nil they stay in the hash, for a script that cannot serve the waiting lines they may unblock
-- (guards_lib.lua). O(locks held).
local function live_of(locks_key, records, now, released)
  local live, expired = {}, {}
  for _, record in ipairs(records) do
    if record.lock.e > now then
      live[record.f] = record.lock
    elseif released ~= nil then
      expired[#expired + 1] = record.f
      released[#released + 1] = released_entry(record.lock, 'expired', '')
    end
  end
  call_in_chunks('HDEL', locks_key, expired)
  return live
end

-- read_locks and live_of in one: the live locks, and the book.
local function load_live(locks_key, now, released)
  local records, book = read_locks(locks_key)
  return live_of(locks_key, records, now, released), book
end

local function book_num(book, name)
  return tonumber(book.v[name] or '0')
end

-- Changes a bookkeeping field; it is written with the next write_locks.
local function book_set(book, name, value)
  book.v[name] = value
  book.dirty[name] = value
end

-- What a request for a page checks before it decides anything (acquire_lock, wait_for,
-- request_takeover). Returns the reply that ends the request at once, or nil and the configurator's
-- lock records and book (read_locks) and the store's time:
--   {s='VOID'}       the request was given up before it got here: a command that waited in a frozen
--                    Redis may run after its requester was told UNAVAILABLE;
--   {s='NOT_FOUND'}  no such configurator, or no such item in it ('item_id' '' for the configurator
--                    and its variables). That the configurator exists is noted in the book, written
--                    with the next write_locks, so that later requests skip that look.
local function open_request(locks_key, configurator_key, items_key, void_key, item_id)
  local now = now_ms()
  local records, book = read_locks(locks_key)
  if book_num(book, 'void') > now and redis.call('EXISTS', void_key) == 1 then
    return { s = 'VOID' }
  end
  if book.v.found == nil then
    if redis.call('EXISTS', configurator_key) == 0 then return { s = 'NOT_FOUND' } end
    book_set(book, 'found', '1')
  end
  if item_id ~= '' and redis.call('HEXISTS', items_key, item_id) == 0 then
    return { s = 'NOT_FOUND' }
  end
  return nil, records, book, now
end

-- Writes lock records ({field, record, field, record, ...}, may be empty) and every changed
-- bookkeeping field in one HSET, then the TTL the book asks for (after the HSET: a hash that did
-- not exist yet has to exist before it can expire).
local function write_locks(locks_key, book, fields)
  local args = {}
  for i = 1, #fields, 2 do
    args[#args + 1] = fields[i]
    args[#args + 1] = cjson.encode(fields[i + 1])
  end
  for name, value in pairs(book.dirty) do
    args[#args + 1] = '#' .. name
    args[#args + 1] = type(value) == 'number' and string.format('%d', value) or value
  end
  book.dirty = {}
  call_in_chunks('HSET', locks_key, args)
  if book.expire_in ~= nil then
    redis.call('PEXPIRE', locks_key, string.format('%d', book.expire_in))
    book.expire_in = nil
  end
end

-- Makes the hash live at least until 'till' (ms) and then some, unless '#exp' says it already
-- does. The TTL only ever grows: every TTL of the hash is set here and recorded in '#exp'.
local function keep_until(book, till, now)
  if book_num(book, 'exp') >= till then return end
  book.expire_in = till + 30000 - now
  book_set(book, 'exp', till + 30000)
end

-- Keeps the hash alive at least as long as a lease ending at 'ends', and '#seq' a while after.
local function keep_for_lease(book, ends, now)
  keep_until(book, ends + 30000, now)
end

-- A new fencing token: strictly increasing per configurator (so per resource), and never below
-- the clock in microseconds, so that a Redis that lost its data cannot hand out an old token again.
local function next_token(book, now)
  local token = book_num(book, 'seq') + 1
  if token < now * 1000 then token = now * 1000 end
  book_set(book, 'seq', token)
  return string.format('%d', token)
end

-- Whether a grant whose lease ends at 'ends' needs its own entry in the lease-expiries set: only
-- when no look at the configurator is known to be scheduled before it ('#sched'). Records 'ends' as
-- the new '#sched' when it does; the caller then runs schedule_expiry with it.
local function needs_schedule(book, now, ends)
  local scheduled = book_num(book, 'sched')
  if scheduled > now and scheduled <= ends then return false end
  book_set(book, 'sched', ends)
  return true
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

-- A grant the socket's request made is given back: the lock stays while another socket keeps it
-- (the change to write is returned), else it ends with 'reason' and is listed in 'released'.
local function give_back(locks_key, live, field, lock, socket_id, reason, released)
  unkeep(lock, socket_id)
  if has_keepers(lock) then return { field, lock } end
  redis.call('HDEL', locks_key, field)
  live[field] = nil
  released[#released + 1] = released_entry(lock, reason, '')
  return {}
end

-- Which of two blocking locks a refusal names: the configurator lock, then the variables lock,
-- then the item page whose field sorts first (byte order). Total, so the choice never depends on
-- the order in which a hash is walked.
local function wider(field, than)
  local function rank(f) if f == 'cfg' then return 0 elseif f == 'var' then return 1 else return 2 end end
  if rank(field) ~= rank(than) then return rank(field) < rank(than) end
  return field < than
end

-- The widest (see wider) of the live locks for which blocks(field, lock) is true; nil when none.
local function widest_blocker(live, blocks)
  local found, found_field = nil, nil
  for field, lock in pairs(live) do
    if blocks(field, lock) and (found == nil or wider(field, found_field)) then found, found_field = lock, field end
  end
  return found
end

-- The lock of another user that refuses 'field' to 'user' (the table of §2), ignoring 'except'.
local function blocked_for(live, field, user, except)
  return widest_blocker(live, function(held_field, lock)
    return held_field ~= except and lock.u ~= user and conflicts(field, held_field)
  end)
end

-- The waiting lines' lengths that this run published with its waiting event (set by publish_waiting
-- in waitlines_lib.lua; cjson.null once nobody waits), nil when the run published none. The
-- announcement repeats them: a node that broadcasts the new locks must not pair them with the
-- lengths from before the change, which it would until it heard the waiting event.
local run_waiting_counts = nil

-- Announces a change of the configurator to every node: the whole live state plus the releases.
-- Published from inside the script run that made the change, so no change goes unannounced.
-- 'look' (optional): {at=<ms>, socket=<socketId>} when a grant needs a look scheduled at its lease
-- end. The granting socket's node schedules it once the script has answered; every other node does
-- too on hearing this, because that node may die in between, and the lock would never be looked at.
-- 'waiting' (only when this run changed a waiting line): run_waiting_counts.
local function announce(channel, configurator_id, live, released, now, look)
  local views = {}
  for _, lock in pairs(live) do views[#views + 1] = public_view(lock) end
  redis.call('PUBLISH', channel, cjson.encode({ c = configurator_id, locks = views, released = released, ts = now,
    look = look, waiting = run_waiting_counts }))
end
