-- list_locks: the live locks of one configurator (read only; expired leases are skipped, the
-- reaper announces them).
--
-- KEYS[1] locks  hash of the configurator's locks (see lib.lua)
-- Reply (JSON): {locks=[<record>...]}
local flat = redis.call('HGETALL', KEYS[1])
local now = now_ms()
local locks = {}
for i = 1, #flat, 2 do
  if string.sub(flat[i], 1, 1) ~= '#' then
    local lock = cjson.decode(flat[i + 1])
    if lock.e > now then locks[#locks + 1] = lock end
  end
end
return cjson.encode({ locks = locks })
