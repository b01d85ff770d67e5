-- KEYS: queue, hb, pending, notify, match, tickets...
-- ARGV: match id, deadline ms, now ms, ticket ids JSON, retention s, ids...
-- Returns 0 when claimed, else the 1-based position of a ticket that is not claimable.
-- Uses notify() (notify.lua, prepended when loaded).
local now = tonumber(ARGV[3])
for i = 6, #KEYS do
  if redis.call('HGET', KEYS[i], 'status') ~= 'QUEUED' then return i - 5 end
  if tonumber(redis.call('HGET', KEYS[i], 'hb')) < now then return i - 5 end
end
for i = 6, #KEYS do
  redis.call('HSET', KEYS[i], 'status', 'MATCHING', 'match', ARGV[1])
  redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('ZREM', KEYS[2], ARGV[i])
  notify(KEYS[4], ARGV[i], 'MATCHING')
end
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[5], 'state', 'CLAIMED', 'tickets', ARGV[4])
redis.call('EXPIRE', KEYS[5], ARGV[5])
return 0
