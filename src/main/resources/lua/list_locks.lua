-- list_locks: the locks of one configurator (read only). Expired leases are skipped unless asked
-- for: the reaper announces them, and a node that makes up for what it missed must know that their
-- end is still to be announced.
--
-- KEYS[1] locks    hash of the configurator's locks (see locks_lib.lua)
-- ARGV[1] expired  '1' to list locks whose lease ran out too (optional, default '0')
-- Reply (JSON): {locks=[<record>...]}
local records = read_locks(KEYS[1])
local now = now_ms()
local with_expired = ARGV[1] == '1'
local locks = {}
for _, record in ipairs(records) do
  if with_expired or record.lock.e > now then locks[#locks + 1] = record.lock end
end
return cjson.encode({ locks = locks })
