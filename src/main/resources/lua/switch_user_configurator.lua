-- switch_user_configurator: the user's one configurator (docs/protocol.md §2) moves on to a grant only
-- if it is newer than the one recorded, and the reply names the grant that must go for it. A switch
-- is one SET ... GET; the switch to a grant may run on several nodes, each at its own moment (a line
-- or a take-over hands the page to every socket of the user that waited or asked), so a late one can
-- put an older grant in the place of a newer one. That switch puts the newer one back through this
-- script, which leaves a record moved on meanwhile to a still newer grant alone: whichever the order,
-- the user ends with the newest grant alone. Newer: a later acquiredAt, then a larger fencing token,
-- then a larger configurator id (one order that every node agrees on, UserConfigurators.Grant too).
-- A record of an earlier version, without acquiredAt, is older than any grant.
--
-- KEYS[1] record   string: the user's configurator grant, '<configuratorId>|<token>|<acquiredAt ms>'
-- ARGV[1] grant    the new grant, in the record's form
-- ARGV[2] ttlMs    the record's time to live
-- Reply: {outcome, grant}:
--   {'recorded', previous}  the record names the new grant now; previous ('' when none, or the same
--                           configurator) is to be released
--   {'kept', ''}            the record named this grant already: a switch to it ran before
--   {'newer', recorded}     the record names a newer grant, which stays: the new grant is to be released
local function parse(grant)
  local c, t, a = string.match(grant, '^(%d+)|(%d+)|?(%d*)$')
  return { c = tonumber(c) or 0, t = tonumber(t) or 0, a = tonumber(a) or 0 }
end

local function newer(x, y)
  if x.a ~= y.a then return x.a > y.a end
  if x.t ~= y.t then return x.t > y.t end
  return x.c > y.c
end

local previous = redis.call('GET', KEYS[1])
if previous == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return { 'kept', '' }
end
local grant = parse(ARGV[1])
if previous then
  local recorded = parse(previous)
  if newer(recorded, grant) then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return { 'newer', previous }
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if not previous or parse(previous).c == grant.c then return { 'recorded', '' } end
return { 'recorded', previous }
