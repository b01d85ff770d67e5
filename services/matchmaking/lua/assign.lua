-- KEYS: pending, notify, match, live, tickets...
-- ARGV: match id, record JSON, retention s, (unused), assignment JSON per ticket...
-- Uses notify() (notify.lua, prepended when loaded).
for i = 5, #KEYS do
  if redis.call('HGET', KEYS[i], 'status') ~= 'MATCHING' then return 0 end
  if redis.call('HGET', KEYS[i], 'match') ~= ARGV[1] then return 0 end
end
for i = 5, #KEYS do
  redis.call('HSET', KEYS[i], 'status', 'ASSIGNED', 'assignment', ARGV[i])
  redis.call('EXPIRE', KEYS[i], ARGV[3])
  notify(KEYS[2], redis.call('HGET', KEYS[i], 'id'), 'ASSIGNED')
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[3], 'state', 'LIVE', 'record', ARGV[2])
redis.call('PERSIST', KEYS[3])
redis.call('SADD', KEYS[4], ARGV[1])
return 1
