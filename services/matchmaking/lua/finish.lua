-- KEYS: lease, live, match. ARGV: owner, match id, retention s. The game is over: forget it.
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('SREM', KEYS[2], ARGV[2])
if redis.call('EXISTS', KEYS[3]) == 1 then
  redis.call('HSET', KEYS[3], 'state', 'FINISHED')
  redis.call('EXPIRE', KEYS[3], ARGV[3])
end
return 1
