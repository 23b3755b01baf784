/** What this server claims to be: a MongoDB 7.0 standalone (wire version 21). */
export const SERVER_VERSION = '7.0.14';
export const VERSION_ARRAY = [7, 0, 14, 0];
export const MAX_WIRE_VERSION = 21;
export const MIN_WIRE_VERSION = 0;
export const LOGICAL_SESSION_TIMEOUT_MINUTES = 30;
export const FEATURE_COMPATIBILITY_VERSION = '7.0';
