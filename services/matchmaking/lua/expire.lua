-- KEYS: queue, hb, notify, tickets... ARGV: now ms, retention s, ids...
-- (ticket key i pairs with ARGV[i]). Expires queued tickets past their heartbeat
-- and drops stale entries of the heartbeat set.
-- Uses notify() (notify.lua, prepended when loaded).
local now = tonumber(ARGV[1])
local expired = 0
for i = 4, #KEYS do
  local id = ARGV[i]
  local st = redis.call('HGET', KEYS[i], 'status')
  if st == 'QUEUED' then
    if tonumber(redis.call('HGET', KEYS[i], 'hb')) < now then
      redis.call('HSET', KEYS[i], 'status', 'EXPIRED')
      redis.call('ZREM', KEYS[1], id)
      redis.call('ZREM', KEYS[2], id)
      redis.call('EXPIRE', KEYS[i], ARGV[2])
      notify(KEYS[3], id, 'EXPIRED')
      expired = expired + 1
    end
  else
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZREM', KEYS[2], id)
  end
end
return expired
