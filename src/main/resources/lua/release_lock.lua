-- release_lock: compare-and-delete of one lock, on the server, in one step.
-- With a token it removes only that exact grant: a lease that expired and was granted again (to
-- anyone, the same user included) has another token and is left alone. Without a token it removes
-- the user's current grant (an explicit unlock: any socket of the holder may unlock).
--
-- KEYS[1] locks          hash of the configurator's locks (see locks_lib.lua)
-- ARGV[1] field          'cfg' | 'var' | 'i:<itemId>:<page>'
-- ARGV[2] userId         the holder that must own the lock
-- ARGV[3] token          '' or the fencing token of the exact grant to remove
-- ARGV[4] reason         'unlock' | 'replaced' | 'admin' | 'deleted' | ...
-- ARGV[5] exceptSocket   the socket whose own request released it ('' = none): no lock-lost there
-- ARGV[6] configuratorId ARGV[7] channel
-- ARGV[8] runBy          the last moment (ms, Redis's clock) the release may run: its node has told its
--                        caller by then that nothing was released, so a later run releases nothing
-- KEYS[2..5], ARGV[9..10] waiting lines (waitlines_lib.lua; optional): the freed lock goes to whom
--                        comes first in the same run
-- Reply (JSON): {s='RELEASED', lock=<record>, released=[...]} | {s='NOT_HELD', released=[...]}
--             | {s='GIVEN_UP'} (too late: nothing done)
--   released: every release this run made and announced (expired leases found on the way included)
local locks_key = KEYS[1]
local field, user_id, token, reason, except_socket = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local configurator_id, channel = ARGV[6], ARGV[7]

local now = now_ms()
if now > tonumber(ARGV[8]) then return cjson.encode({ s = 'GIVEN_UP' }) end
local released = {}
local live, book = load_live(locks_key, now, released)
local lock = live[field]
local waiting = waiting_context(KEYS, 2, ARGV, 9, configurator_id, book)

if lock == nil or lock.u ~= user_id or (token ~= '' and lock.t ~= token) then
  if #released > 0 then serve(waiting, locks_key, live, now, released) end
  if #released > 0 then announce(channel, configurator_id, live, released, now) end
  return cjson.encode({ s = 'NOT_HELD', released = released })
end

-- The first write of every path is an HDEL (here, or of expired locks in load_live), which a full Redis
-- lets through, and after it the rest (full_store_lib.lua): a release goes through when Redis is full.
redis.call('HDEL', locks_key, field)
live[field] = nil
released[#released + 1] = released_entry(lock, reason, except_socket)
serve(waiting, locks_key, live, now, released)
announce(channel, configurator_id, live, released, now)
return cjson.encode({ s = 'RELEASED', lock = lock, released = released })
