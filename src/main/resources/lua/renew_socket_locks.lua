-- renew_socket_locks: the socket is alive, so the leases of the locks it keeps go on.
-- A renewal is not a change watchers see: nothing is published. Expired locks are left to the
-- reaper, which announces them.
--
-- The socket's places in waiting lines and its take-over requests here are vouched for again too
-- (the waiters hash's 'e:<socketId>', see waitlines_lib.lua), so that only a dead node's go stale.
--
-- The renewal also tells whether the store went back in time: a fail-over to a replica that had not
-- caught up loses the writes it missed, and a store that kept its mark key (StoreDataWatch) shows
-- no other sign of it. Fencing tokens only grow ('#seq' stays with the hash while any lock of it
-- lives), so a store whose last token is below one the socket's client was told it holds never
-- handed that one out.
--
-- KEYS[1] locks         hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2] waiters       hash of the configurator's waiters (see waitlines_lib.lua)
-- KEYS[3] configurator  the configurator's record: a locks hash gone with it was deleted, not lost
-- ARGV[1] socketId
-- ARGV[2] leaseMs
-- ARGV[3] told          the newest fencing token the socket's client was told it holds here, '0' for none
-- Reply: {renewed, keeps, behind}: the number of locks renewed; 1 when the socket keeps anything here
--        (a lock, also one whose lease ran out and whose release is still to come, a place in a line
--        or a take-over request), else 0: the socket's node may then take this configurator off the
--        socket's index (SocketIndex), for nothing here needs the socket's renewal or its end; and 1
--        when the store never handed out the token 'told' (it went back in time), else 0
local locks_key, waiters_key, configurator_key = KEYS[1], KEYS[2], KEYS[3]
local socket_id, lease_ms, told = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])

local now = now_ms()
local records, book = read_locks(locks_key)
local behind = 0
if told > 0 and book_num(book, 'seq') < told
    and (book.v.seq ~= nil or redis.call('EXISTS', configurator_key) == 1) then
  behind = 1
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
return { #changed / 2, keeps, behind }
