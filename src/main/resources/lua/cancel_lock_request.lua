-- cancel_lock_request: the server gave up waiting for an acquire_lock (the store did not answer in
-- time) and told its requester UNAVAILABLE. The request must leave nothing behind: if it has not run
-- yet it never will (the void marker), and if it ran, the keeper it added goes again; a lock nobody
-- else keeps is released and announced as any release. The requester is not spared its lock-lost (nor,
-- where it watches, its lock-released): its reply was lock-failed, which told it of no release. A
-- socket that kept the lock before that request keeps it.
--
-- KEYS[1] locks          hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2] void           string: the marker acquire_lock looks for
-- ARGV[1] field          'cfg' | 'var' | 'i:<itemId>:<page>'
-- ARGV[2] socketId       ARGV[3] request   the number the request ran under
-- ARGV[4] reason         how a release is announced
-- ARGV[5] configuratorId ARGV[6] channel
-- ARGV[7] voidMs         how long the marker stays (longer than a command can wait in Redis)
-- KEYS[3..6], ARGV[8..9] waiting lines (waitlines_lib.lua; optional): a lock it frees goes to whom
--                        waits for it, as after any release
-- Reply (JSON): {released=[<released entry>...]} (expired leases found on the way included)
local locks_key, void_key = KEYS[1], KEYS[2]
local field, socket_id, request, reason = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
local configurator_id, channel, void_ms = ARGV[5], ARGV[6], tonumber(ARGV[7])

redis.call('SET', void_key, '1', 'PX', void_ms)

local now = now_ms()
local released = {}
local live, book = load_live(locks_key, now, released)
local lock = live[field]
-- acquire_lock looks for void markers only until '#void', and the hash lives at least as long.
local void_until = now + void_ms + 1000
if book_num(book, 'void') < void_until then book_set(book, 'void', void_until) end
keep_until(book, void_until, now)
local changed = {}

if lock ~= nil and lock.k[socket_id] ~= nil and lock.r ~= nil and lock.r[socket_id] == request then
  changed = give_back(locks_key, live, field, lock, socket_id, reason, released)
end

write_locks(locks_key, book, changed)
local served = serve(waiting_context(KEYS, 3, ARGV, 8, configurator_id, book), locks_key, live, now, released)
if #released > 0 or served then announce(channel, configurator_id, live, released, now) end
return cjson.encode({ released = released })
