-- answer_takeover: the holder accepts or refuses a pending take-over (docs/protocol.md §13).
-- Accepting hands the lock over in this same run (hand_over in takeover_lib.lua), also after the
-- deadline. Only an answer in time can refuse: a refusal after the deadline counts as no answer, and
-- leaves the request to the sweep that is due, which hands over once it has checked that the
-- asker's server lives (resolve_takeover.lua).
--
-- KEYS[1] locks         hash of the configurator's locks (see locks_lib.lua)
-- KEYS[2..5]            lines, line, waiters, takeovers (see waitlines_lib.lua)
-- ARGV[1] field         ARGV[2] configuratorId  ARGV[3] userId (the holder answering)
-- ARGV[4] accept        '1' | '0'
-- ARGV[5] lockChannel   ARGV[6] leaseMs   ARGV[7] waitChannel
-- ARGV[8] askerUserId   the asker the holder answers ('' = any): another user's request is no request
--                       to this answer; after ARGV[6..7], which waiting_context reads
-- Reply (JSON): {s='ANSWERED', handed, late, released=[...]} | {s='NOT_FOUND', late, released=[...]}
--              (NOT_FOUND also for a refusal after the deadline); late: a yes came after the deadline
--              and the run handed the lock over, as a sweep would have (it counts as no answer)
local locks_key = KEYS[1]
local field, configurator_id, user_id, accept, channel = ARGV[1], ARGV[2], ARGV[3], ARGV[4] == '1', ARGV[5]
local asker_id = ARGV[8]
local now = now_ms()
local released = {}
local live, book = load_live(locks_key, now, released)
local ctx = waiting_context(KEYS, 2, ARGV, 6, configurator_id, book)
local pending = redis.call('HGET', ctx.takeovers, field)
local takeover = pending and cjson.decode(pending) or nil
if takeover ~= nil and asker_id ~= '' and takeover.u ~= asker_id then
  -- The holder answers a request that has ended (its asker left, §13) while another user's now stands:
  -- a yes meant for one asker must never hand the page to another. Nothing changes; the request stands.
  takeover = nil
end
local answered, handed, late = false, false, false
-- Only a holder who still holds the lock may answer. One whose lease ran out (found expired just now,
-- before the reaper saw it) has nothing left to refuse: the freed lock goes to the asker below, as
-- it would have had the reaper come first (§13: B gets a lock that A released meanwhile).
local holding = live[field] ~= nil and live[field].u == user_id
if takeover ~= nil and takeover.h == user_id and holding and forget_dead_sockets(ctx, takeover, now) > 0 then
  -- The asker's node died: a request whose asker's last socket went with it has ended, and an answer
  -- to it is an answer to nothing (§13), not a yes that hands nothing over.
  pending = redis.call('HGET', ctx.takeovers, field)
  takeover = pending and cjson.decode(pending) or nil
end
if takeover ~= nil and takeover.h == user_id and holding then
  -- No answer before the deadline counts as yes, also when one comes after it and before the sweep:
  -- a late refusal is no refusal (it is answered as an answer to nothing), a late yes is a yes.
  local due = takeover.d <= now
  answered = accept or not due
  if accept then
    handed = hand_over(ctx, locks_key, live, now, field, takeover, released)
    late = due and handed
  elseif not due then
    end_takeover(ctx, field, takeover)
    ctx.refused[#ctx.refused + 1] = { f = field, u = takeover.u, by = takeover.hn }
  end
end
local served = false
if #released > 0 then served = serve(ctx, locks_key, live, now, released) end
if #released > 0 or served or handed then announce(channel, configurator_id, live, released, now) end
publish_waiting(ctx, live)
if not answered then return cjson.encode({ s = 'NOT_FOUND', late = late, released = released }) end
return cjson.encode({ s = 'ANSWERED', handed = handed, late = late, released = released })
