-- list_locks: the live locks of one configurator (read only; expired leases are skipped, the
-- reaper announces them).
--
-- KEYS[1] locks  hash of the configurator's locks (see locks_lib.lua)
-- Reply (JSON): {locks=[<record>...]}
local records = read_locks(KEYS[1])
local now = now_ms()
local locks = {}
for _, record in ipairs(records) do
  if record.lock.e > now then locks[#locks + 1] = record.lock end
end
return cjson.encode({ locks = locks })
