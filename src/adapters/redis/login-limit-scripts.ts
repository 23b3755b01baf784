/**
 * The Redis login limiter's steps as Lua scripts: Redis runs a script without interleaving any
 * other command, so the check and the count of an attempt are one step for every instance.
 * Each key is a hash { count, lastAt } that expires a window after its last attempt; absent
 * keys are passed as ''. Time is the Redis server's, so instances with skewed clocks agree.
 */

/**
 * KEYS: the address's key, the account-and-address pair's key, the pair's "logged in before" key.
 * ARGV: window ms, first delay ms, address allowance, pair allowance.
 * Returns { granted 1|0, wait ms, address charged 1|0 }. The delay is delayAfterFailures (login-throttle.ts).
 */
export const RESERVE_LOGIN_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local window = tonumber(ARGV[1])
local firstDelay = tonumber(ARGV[2])
local known = KEYS[3] ~= '' and redis.call('EXISTS', KEYS[3]) == 1
local chargeClient = KEYS[1] ~= '' and not known
local counted = {}
if chargeClient then counted[#counted + 1] = { KEYS[1], tonumber(ARGV[3]) } end
if KEYS[2] ~= '' then counted[#counted + 1] = { KEYS[2], tonumber(ARGV[4]) } end
local wait = 0
for _, entry in ipairs(counted) do
  local state = redis.call('HMGET', entry[1], 'count', 'lastAt')
  local count = tonumber(state[1]) or 0
  if count >= entry[2] then
    local delay = math.min(window, firstDelay * 2 ^ math.min(count - entry[2], 30))
    wait = math.max(wait, (tonumber(state[2]) or 0) + delay - now)
  end
end
if wait > 0 then return { 0, math.ceil(wait), 0 } end
for _, entry in ipairs(counted) do
  redis.call('HINCRBY', entry[1], 'count', 1)
  redis.call('HSET', entry[1], 'lastAt', now)
  redis.call('PEXPIRE', entry[1], window)
end
return { 1, 0, chargeClient and 1 or 0 }
`;

/**
 * KEYS: the address's key if the attempt charged it, the pair's key, the pair's "logged in before" key.
 * ARGV: 'succeeded' or 'released', how long a pair stays known (ms).
 * Succeeded: refunds the address, clears the pair, remembers the pair. Released: refunds both.
 */
export const SETTLE_LOGIN_SCRIPT = `
local function refund(key)
  if key ~= '' and redis.call('EXISTS', key) == 1 then
    if redis.call('HINCRBY', key, 'count', -1) <= 0 then redis.call('DEL', key) end
  end
end
refund(KEYS[1])
if ARGV[1] == 'succeeded' then
  if KEYS[2] ~= '' then redis.call('DEL', KEYS[2]) end
  if KEYS[3] ~= '' then redis.call('SET', KEYS[3], '1', 'PX', ARGV[2]) end
else
  refund(KEYS[2])
end
return 1
`;
