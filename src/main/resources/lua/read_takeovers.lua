-- read_takeovers: the take-overs of one configurator as they stand now, for a node whose subscription
-- to the waiting events was down and that must make up for what its users missed (docs/protocol.md
-- §13). The store keeps a take-over only while it is pending; of one that ended, what is left is the
-- page as it is now. Reads only.
--
-- KEYS[1] locks         hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2] configurator  hash: the configurator's record; absent = no such configurator
-- KEYS[3] items         hash: itemId -> item record of this configurator
-- KEYS[4] takeovers     hash: field -> pending take-over (see waitlines_lib.lua)
-- ARGV[2i-1], ARGV[2i]  field and asker (userId) of each take-over whose end the node waits to hear of
-- Reply (JSON): {found, pending=[{f, u, n, h, d, m}], asked=[{f, u, pending, exists?, lock?, blocking?}]}
--   found    whether the configurator exists
--   pending  every pending take-over: field, asker id and name, holder id, deadline (ms), message
--   asked    one per ARGV pair, in order: whether that asker's request is still pending; when not,
--            whether the page exists, the live lock of the field (whole record, token included) and
--            the widest lock of another user that refuses the field to the asker (public view)
local locks_key, configurator_key, items_key, takeovers_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]

local found = redis.call('EXISTS', configurator_key) == 1
local pending, of_field = {}, {}
local flat = redis.call('HGETALL', takeovers_key)
for i = 1, #flat, 2 do
  local takeover = cjson.decode(flat[i + 1])
  of_field[flat[i]] = takeover
  pending[#pending + 1] = { f = flat[i], u = takeover.u, n = takeover.n, h = takeover.h, d = takeover.d,
                            m = takeover.m }
end

-- The locks are read only when a request has ended: the usual catch-up finds every request pending.
local live = nil
local function live_locks()
  if live == nil then
    live = {}
    local now = now_ms()
    for _, record in ipairs((read_locks(locks_key))) do
      if record.lock.e > now then live[record.f] = record.lock end
    end
  end
  return live
end

local asked = {}
for i = 1, #ARGV - 1, 2 do
  local field, user = ARGV[i], ARGV[i + 1]
  local entry = { f = field, u = user, pending = of_field[field] ~= nil and of_field[field].u == user }
  if not entry.pending then
    local item = string.match(field, '^i:(%d+):')
    entry.exists = found and (item == nil or redis.call('HEXISTS', items_key, item) == 1)
    local locks = live_locks()
    entry.lock = locks[field]
    local blocking = blocked_for(locks, field, user, nil)
    if blocking ~= nil then entry.blocking = public_view(blocking) end
  end
  asked[#asked + 1] = entry
end
return cjson.encode({ found = found, pending = pending, asked = asked })
