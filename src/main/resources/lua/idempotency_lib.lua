-- Helpers of the create scripts for Idempotency-Key (docs/protocol.md §8). Needs no other library.
-- The key's record lives in the configurator's hash slot, beside what the create writes, and is
-- written in the same script run as the create: a crash can neither create without the record nor
-- leave a record of a create that did not happen. Its value is JSON:
--   f   fingerprint of the request (route and body) that created it
--   r   the script's reply to that request, returned again verbatim to every retry

-- nil when there is no key (or no record yet); else the reply a retry gets: the first reply again,
-- or {s='KEY_REUSED'} when the key was first used for another request. `exists` says whether the
-- entity this request names is there; when it is not (deleted since the first reply), the reply
-- carries gone=true: nothing is written again, and the caller removes the index entry it wrote
-- for the retry, which would otherwise point at nothing for good.
local function idempotent_replay(key, fingerprint, exists)
  if key == nil or key == '' then return nil end
  local stored = redis.call('GET', key)
  if not stored then return nil end
  local record = cjson.decode(stored)
  local replay = record.f == fingerprint and record.r or cjson.encode({ s = 'KEY_REUSED' })
  if exists() then return replay end
  local answer = cjson.decode(replay)
  answer.gone = true
  return cjson.encode(answer)
end

-- Encodes the reply of a create that happened, and records it under the key (when there is one).
local function idempotent_answer(key, fingerprint, ttl_seconds, answer)
  local encoded = cjson.encode(answer)
  if key ~= nil and key ~= '' then
    redis.call('SET', key, cjson.encode({ f = fingerprint, r = encoded }), 'EX', ttl_seconds)
  end
  return encoded
end
