-- renew_socket_locks: the socket is alive, so the leases of the locks it keeps go on.
-- A renewal is not a change watchers see: nothing is published. Expired locks are left to the
-- reaper, which announces them.
--
-- KEYS[1] locks    hash of the configurator's locks (see lib.lua)
-- ARGV[1] socketId
-- ARGV[2] leaseMs
-- Reply: the number of locks renewed
local locks_key = KEYS[1]
local socket_id, lease_ms = ARGV[1], tonumber(ARGV[2])

local now = now_ms()
local flat = redis.call('HGETALL', locks_key)
local renewed = 0
for i = 1, #flat, 2 do
  local field = flat[i]
  if string.sub(field, 1, 1) ~= '#' then
    local lock = cjson.decode(flat[i + 1])
    if lock.e > now and lock.k[socket_id] ~= nil then
      lock.e = now + lease_ms
      redis.call('HSET', locks_key, field, cjson.encode(lock))
      renewed = renewed + 1
    end
  end
end
if renewed > 0 then extend_key(locks_key, lease_ms) end
return renewed
