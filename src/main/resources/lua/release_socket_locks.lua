-- release_socket_locks: a socket is gone (or idle): it stops keeping the locks of this
-- configurator; every lock no other socket keeps is released. Atomic per configurator.
--
-- KEYS[1] locks          hash of the configurator's locks (see locks_lib.lua)
-- ARGV[1] socketId
-- ARGV[2] reason         'disconnect' | 'idle' | 'expired'
-- ARGV[3] configuratorId ARGV[4] channel
-- ARGV[5] upTo           '' = every lock the socket keeps; else only those its lock requests up to
--                        this number granted (an idle release: a grant after the decision stays);
--                        'none' = no lock: the socket only leaves its lines and take-over requests (a
--                        stopping node's sockets leave them all before any of their locks is released)
-- KEYS[2..5], ARGV[6..7] waiting lines (waitlines_lib.lua; optional): the socket stops waiting
--                        (and asking for take-overs), but for what it asked after upTo; freed locks
--                        go to whom comes first
-- Reply (JSON): {released=[<released entry>...]} (expired leases found on the way included)
local locks_key = KEYS[1]
local socket_id, reason, configurator_id, channel = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local up_to = tonumber(ARGV[5])
local keeps_locks = ARGV[5] == 'none'

local now = now_ms()
write_even_when_full(locks_key)
local released = {}
local live, book = load_live(locks_key, now, released)
local waiting = waiting_context(KEYS, 2, ARGV, 6, configurator_id, book)
-- The user's sockets that are still there are told the places that end: an idle user's (docs/protocol.md
-- §6), and a user's other sockets when the last one that asked went away (§14).
local why = (reason == 'idle' or reason == 'disconnect') and reason or nil
forget_socket(waiting, socket_id, why, up_to)

local changed, gone = {}, {}
for field, lock in pairs(live) do
  local request = (lock.q and lock.q[socket_id]) or 0
  if not keeps_locks and lock.k[socket_id] ~= nil and (up_to == nil or request <= up_to) then
    unkeep(lock, socket_id)
    if has_keepers(lock) then
      changed[#changed + 1] = field
      changed[#changed + 1] = lock
    else
      gone[#gone + 1] = field
      live[field] = nil
      released[#released + 1] = released_entry(lock, reason, '')
    end
  end
end

write_locks(locks_key, book, changed)
call_in_chunks('HDEL', locks_key, gone)

local served = serve(waiting, locks_key, live, now, released)
if #released > 0 or served then announce(channel, configurator_id, live, released, now) end
return cjson.encode({ released = released })
