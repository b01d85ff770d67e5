-- KEYS: queue, hb, pending, notify, match, tickets...
-- ARGV: match id, new hb expiry ms, retention s, error ('' = back to the queue), (unused), ids...
-- Uses notify() (notify.lua, prepended when loaded).
local released = 0
for i = 6, #KEYS do
  if redis.call('HGET', KEYS[i], 'status') == 'MATCHING'
     and redis.call('HGET', KEYS[i], 'match') == ARGV[1] then
    redis.call('HDEL', KEYS[i], 'match')
    if ARGV[4] == '' then
      redis.call('HSET', KEYS[i], 'status', 'QUEUED', 'hb', ARGV[2])
      redis.call('ZADD', KEYS[1], redis.call('HGET', KEYS[i], 'seq'), ARGV[i])
      redis.call('ZADD', KEYS[2], ARGV[2], ARGV[i])
      notify(KEYS[4], ARGV[i], 'QUEUED')
    else
      redis.call('HSET', KEYS[i], 'status', 'FAILED', 'error', ARGV[4])
      redis.call('EXPIRE', KEYS[i], ARGV[3])
      notify(KEYS[4], ARGV[i], 'FAILED')
    end
    released = released + 1
  end
end
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('DEL', KEYS[5])
return released
