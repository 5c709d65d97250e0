-- list_resumed_socket: lists a resumed socket under the configurators its old socket kept something in
-- (lock/redis/SocketIndex), before the locks move to it. A resume keeps what is held, so it runs also
-- when Redis is full (full_store_lib.lua): the index grows by a few ids, for as long as the socket lives.
--
-- KEYS[1] index   set of the configurator ids the socket may keep something in
-- ARGV[1] ttlMs   how long the index lives unless a renewal keeps it
-- ARGV[2..]       configurator ids
-- Reply: 1
write_even_when_full_in_set(KEYS[1])
redis.call('SADD', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
