-- KEYS: queue, hb, notify, tickets... ARGV: error, retention s, (unused), ids...
-- Uses notify() (notify.lua, prepended when loaded).
local failed = 0
for i = 4, #KEYS do
  if redis.call('HGET', KEYS[i], 'status') == 'QUEUED' then
    redis.call('HSET', KEYS[i], 'status', 'FAILED', 'error', ARGV[1])
    redis.call('ZREM', KEYS[1], ARGV[i])
    redis.call('ZREM', KEYS[2], ARGV[i])
    redis.call('EXPIRE', KEYS[i], ARGV[2])
    notify(KEYS[3], ARGV[i], 'FAILED')
    failed = failed + 1
  end
end
return failed
