-- move_socket_locks: resume. The locks a dropped socket kept move to the new socket (possibly on
-- another node): same grants, same tokens, leases renewed. Watchers see no change.
--
-- KEYS[1] locks      hash of the configurator's locks (see locks_lib.lua)
-- ARGV[1] oldSocketId
-- ARGV[2] newSocketId ARGV[3] newNodeId
-- ARGV[4] leaseMs
-- KEYS[2..5], ARGV[5..6] waiting lines (waitlines_lib.lua; optional), ARGV[7] configuratorId: the
--                     socket's places in lines and its take-over requests move with it
-- Reply (JSON): {moved=[<record>...], waits, places=[{f, m}...], asks=[{f, h}...]}: the locks the new
--              socket keeps here now, those an earlier run already moved too (a retried resume whose
--              first run the store answered too late); waits: whether the new socket now waits in a
--              line or asks for a take-over here; places: its places in lines here (field and line
--              member); asks: its take-over requests here (field and holder's user id)
local locks_key = KEYS[1]
local old_socket, new_socket, new_node, lease_ms = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])

local now = now_ms()
write_even_when_full(locks_key)
local records, book = read_locks(locks_key)
local moved, changed = {}, {}
for _, record in ipairs(records) do
  local lock = record.lock
  if lock.e > now and lock.k[old_socket] ~= nil then
    unkeep(lock, old_socket)
    -- The resume makes the new socket a keeper, not a request of it: no request of it undoes that
    -- (not one given up before the resume either), and only a re-entry of it spares it an idle release.
    lock.k[new_socket] = new_node
    lock.q = lock.q or {}
    lock.q[new_socket] = lock.q[new_socket] or 0
    if lock.r ~= nil then lock.r[new_socket] = nil end
    lock.e = now + lease_ms
    changed[#changed + 1] = record.f
    changed[#changed + 1] = lock
    moved[#moved + 1] = lock
  elseif lock.e > now and lock.k[new_socket] ~= nil then
    moved[#moved + 1] = lock
  end
end
if #changed > 0 then
  keep_for_lease(book, now + lease_ms, now)
  write_locks(locks_key, book, changed)
end
-- KEYS[2..5], ARGV[5..7] (optional; leaseMs, waitChannel, configuratorId): what the old socket
-- waited for, the new one waits for, in the same place (waitlines_lib.lua)
local waiting = waiting_context(KEYS, 2, ARGV, 5, ARGV[7], book)
local waits = move_waiting_socket(waiting, old_socket, new_socket, new_node)
local places, asks = {}, {}
if waits then places, asks = waits_of(waiting, new_socket) end
return cjson.encode({ moved = moved, waits = waits, places = places, asks = asks })
