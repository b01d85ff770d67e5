-- KEYS: ticket, queue, hb, notify. ARGV: id, retention s.
-- Uses notify() (notify.lua, prepended when loaded).
local st = redis.call('HGET', KEYS[1], 'status')
if not st then return 'NOT_FOUND' end
if st ~= 'QUEUED' then return st end
redis.call('HSET', KEYS[1], 'status', 'CANCELLED')
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
notify(KEYS[4], ARGV[1], 'CANCELLED')
return 'CANCELLED'
