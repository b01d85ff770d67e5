-- Prepended to the scripts that emit notifications: append (ticket, status)
-- to the game's notify stream, which WatchTicket and the matching loops follow.
local function notify(stream, id, status)
  redis.call('XADD', stream, 'MAXLEN', '~', '10000', '*', 't', id, 's', status)
end
