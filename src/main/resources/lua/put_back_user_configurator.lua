-- put_back_user_configurator: a switch of the user's one configurator (docs/protocol.md §2) records the
-- new grant, then releases the one it replaced. When that release fails, the replaced grant is still
-- the user's: the record names it again, or the user's next switch would release the new grant (given
-- back meanwhile) instead and leave the old one held beside the next. A switch recorded since wins.
--
-- KEYS[1] record    string: the user's configurator grant, '<configuratorId>|<token>|<acquiredAt ms>'
-- ARGV[1] recorded  the grant the failed switch recorded
-- ARGV[2] previous  the grant it replaced and did not release
-- ARGV[3] ttlMs     the record's time to live
-- Reply: 1 if the record names the previous grant again, 0 if another switch recorded one since
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
