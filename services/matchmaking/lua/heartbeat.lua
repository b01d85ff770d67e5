-- KEYS: ticket, queue, hb, notify. ARGV: id, now ms, new expiry ms, retention s.
-- Uses notify() (notify.lua, prepended when loaded).
local st = redis.call('HGET', KEYS[1], 'status')
if not st then return {'NOT_FOUND', '0'} end
if st ~= 'QUEUED' then return {st, '0'} end
if tonumber(redis.call('HGET', KEYS[1], 'hb')) < tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], 'status', 'EXPIRED')
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('EXPIRE', KEYS[1], ARGV[4])
  notify(KEYS[4], ARGV[1], 'EXPIRED')
  return {'EXPIRED', '0'}
end
redis.call('HSET', KEYS[1], 'hb', ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return {'QUEUED', ARGV[3]}
