-- KEYS: lease. ARGV: owner, ms. Renew a lease this owner holds.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
