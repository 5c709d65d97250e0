-- The clock of every script: Redis's own (TIME), in epoch milliseconds. A script asks once per
-- decision and passes the time on: every step of one run sees the same now.

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
