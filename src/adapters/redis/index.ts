export { RedisEventBus, type RedisEventBusOptions } from './redis-event-bus';
export { RedisLoginRateLimiter, type RedisLoginRateLimitOptions } from './redis-login-rate-limiter';
export { RedisRequestRateLimiter } from './redis-request-rate-limiter';
export { createRedisClient, closeRedisClient } from './redis-connection';
export { RedisEventLog, type RedisEventLogOptions } from './redis-event-log';
export { RedisResumeSessions, type RedisResumeSessionsOptions } from './redis-resume-sessions';
