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
-- The other way round, such a store can bring back a grant that had ended (its release lost): the
-- socket keeps it, its client was told it ended, and renewing it would keep the page locked for as
-- long as the socket lives. The renewal names the grants the socket keeps that its client was not
-- told of; one that stays so for a whole renew interval, all of it heard, is a stray (LostGrants), and
-- the next renewals leave it out, so that its lease runs out and the reaper announces its end.
--
-- KEYS[1] locks    hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2] waiters  hash of the configurator's waiters (see waitlines_lib.lua)
-- ARGV[1] socketId
-- ARGV[2] leaseMs
-- ARGV[3] told     the number n of told pairs that follow; '' when the socket's grants are not checked
--                  (a dropped socket: nobody tells it anything until it resumes)
-- ARGV[4..3+2n]    pairs of a lock field and the fencing token of the grant of it that the socket's
--                  client was told it holds
-- ARGV[4+2n..]     pairs of a lock field and a fencing token: strays, grants not to renew
-- Reply: {renewed, keeps, missing, untold}: the number of locks renewed; 1 when the socket keeps
--        anything here (a lock, also one whose lease ran out and whose release is still to come, a
--        place in a line or a take-over request), else 0: the socket's node may then take this
--        configurator off the socket's index (SocketIndex), for nothing here needs the socket's renewal
--        or its end; the told fields whose grant the store does not have (no lock there, or another
--        grant of it); and, when checked, pairs of field and token of the grants the socket keeps here
--        that its client was not told of
local locks_key, waiters_key = KEYS[1], KEYS[2]
local socket_id, lease_ms = ARGV[1], tonumber(ARGV[2])
local told_pairs = tonumber(ARGV[3])

local now = now_ms()
write_even_when_full(locks_key)
local records, book = read_locks(locks_key)
local missing, told, strays = {}, {}, {}
if told_pairs ~= nil then
  local held = {}
  for _, record in ipairs(records) do held[record.f] = record.lock.t end
  local last_told = 3 + 2 * told_pairs
  for i = 4, last_told, 2 do
    told[ARGV[i]] = ARGV[i + 1]
    if held[ARGV[i]] ~= ARGV[i + 1] then missing[#missing + 1] = ARGV[i] end
  end
  for i = last_told + 1, #ARGV, 2 do strays[ARGV[i]] = ARGV[i + 1] end
end
local keeps = 0
-- '#calm': nobody waits or asks here, so neither does this socket (locks_lib.lua).
if book.v.calm == nil and redis.call('HEXISTS', waiters_key, 's:' .. socket_id) == 1 then
  redis.call('HSET', waiters_key, 'e:' .. socket_id, now + 2 * lease_ms)
  keeps = 1
end
local changed, untold = {}, {}
for _, record in ipairs(records) do
  local lock = record.lock
  if lock.k[socket_id] ~= nil then
    keeps = 1
    if told_pairs ~= nil and told[record.f] ~= lock.t then
      untold[#untold + 1] = record.f
      untold[#untold + 1] = lock.t
    end
    if lock.e > now and strays[record.f] ~= lock.t then
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
return { #changed / 2, keeps, missing, untold }
