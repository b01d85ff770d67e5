-- KEYS: ticket, seq, queue, hb, notify. ARGV: id, data, hb expiry ms, retention s.
-- Uses notify() (notify.lua, prepended when loaded).
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local seq = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'data', ARGV[2], 'status', 'QUEUED',
           'seq', seq, 'hb', ARGV[3])
redis.call('ZADD', KEYS[3], seq, ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[4])
notify(KEYS[5], ARGV[1], 'QUEUED')
return seq
