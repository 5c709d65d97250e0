-- renew_socket_locks: the socket is alive, so the leases of the locks it keeps go on.
-- A renewal is not a change watchers see: nothing is published. Expired locks are left to the
-- reaper, which announces them.
--
-- The socket's places in waiting lines and its take-over requests here are vouched for again too
-- (the waiters hash's 'e:<socketId>', see waitlines_lib.lua), so that only a dead node's go stale.
--
-- The renewal also says which grants the socket's client believes it holds here the store no longer
-- has: a store that went back in time (a fail-over to a replica that had not caught up) loses grants
-- without a word, and keeps the mark key that tells a store that lost all its data (StoreDataWatch).
-- A grant also goes missing here when it ended and its announcement is still on its way: the node
-- decides which it was (lock/redis/LostGrants: gone for a whole renew interval, all of it heard).
--
-- KEYS[1] locks    hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2] waiters  hash of the configurator's waiters (see waitlines_lib.lua)
-- ARGV[1] socketId
-- ARGV[2] leaseMs
-- ARGV[3..] told   pairs of a lock field and the fencing token of the grant of it that the socket's
--                  client was told it holds
-- Reply: {renewed, keeps, missing}: the number of locks renewed; 1 when the socket keeps anything here
--        (a lock, also one whose lease ran out and whose release is still to come, a place in a line
--        or a take-over request), else 0: the socket's node may then take this configurator off the
--        socket's index (SocketIndex), for nothing here needs the socket's renewal or its end; and the
--        told fields whose grant the store does not have (no lock there, or another grant of it)
local locks_key, waiters_key = KEYS[1], KEYS[2]
local socket_id, lease_ms = ARGV[1], tonumber(ARGV[2])

local now = now_ms()
local records, book = read_locks(locks_key)
local missing = {}
if #ARGV > 2 then
  local held = {}
  for _, record in ipairs(records) do held[record.f] = record.lock.t end
  for i = 3, #ARGV, 2 do
    if held[ARGV[i]] ~= ARGV[i + 1] then missing[#missing + 1] = ARGV[i] end
  end
end
local keeps = 0
-- '#calm': nobody waits or asks here, so neither does this socket (locks_lib.lua).
if book.v.calm == nil and redis.call('HEXISTS', waiters_key, 's:' .. socket_id) == 1 then
  redis.call('HSET', waiters_key, 'e:' .. socket_id, now + 2 * lease_ms)
  keeps = 1
end
local changed = {}
for _, record in ipairs(records) do
  local lock = record.lock
  if lock.k[socket_id] ~= nil then
    keeps = 1
    if lock.e > now then
      lock.e = now + lease_ms
      changed[#changed + 1] = record.f
      changed[#changed + 1] = lock
    end
  end
end
if #changed > 0 then
  keep_for_lease(book, now + lease_ms, now)
  write_locks(locks_key, book, changed)
end
return { #changed / 2, keeps, missing }
