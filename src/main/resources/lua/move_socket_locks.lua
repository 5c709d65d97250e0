-- move_socket_locks: resume. The locks a dropped socket kept move to the new socket (possibly on
-- another node): same grants, same tokens, leases renewed. Watchers see no change.
--
-- KEYS[1] locks      hash of the configurator's locks (see lib.lua)
-- ARGV[1] oldSocketId
-- ARGV[2] newSocketId ARGV[3] newNodeId
-- ARGV[4] leaseMs
-- KEYS[2..5], ARGV[5..6] waiting lines (waitlines_lib.lua; optional), ARGV[7] configuratorId: the
--                     socket's places in lines and its take-over requests move with it
-- Reply (JSON): {moved=[<record>...]}
local locks_key = KEYS[1]
local old_socket, new_socket, new_node, lease_ms = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])

local now = now_ms()
local flat = redis.call('HGETALL', locks_key)
local moved = {}
for i = 1, #flat, 2 do
  local field = flat[i]
  if string.sub(field, 1, 1) ~= '#' then
    local lock = cjson.decode(flat[i + 1])
    if lock.e > now and lock.k[old_socket] ~= nil then
      unkeep(lock, old_socket)
      -- Before any request of the new socket: its idle release takes them, no request undoes them.
      lock.k[new_socket] = new_node
      lock.q = lock.q or {}
      lock.q[new_socket] = 0
      lock.e = now + lease_ms
      redis.call('HSET', locks_key, field, cjson.encode(lock))
      moved[#moved + 1] = lock
    end
  end
end
if #moved > 0 then extend_key(locks_key, lease_ms) end
-- KEYS[2..5], ARGV[5..7] (optional; leaseMs, waitChannel, configuratorId): what the old socket
-- waited for, the new one waits for, in the same place (waitlines_lib.lua)
move_waiting_socket(waiting_context(KEYS, 2, ARGV, 5, ARGV[7]), old_socket, new_socket, new_node)
return cjson.encode({ moved = moved })
