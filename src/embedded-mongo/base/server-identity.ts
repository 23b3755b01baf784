/** What this server claims to be: MongoDB 7.0 (wire version 21), by default a one-member replica set. */
export const SERVER_VERSION = '7.0.14';
export const VERSION_ARRAY = [7, 0, 14, 0];
export const MAX_WIRE_VERSION = 21;
export const MIN_WIRE_VERSION = 0;
export const LOGICAL_SESSION_TIMEOUT_MINUTES = 30;
export const FEATURE_COMPATIBILITY_VERSION = '7.0';
/** The replica set's name unless `replicaSetName` says otherwise (`rs0`, as in MongoDB's own examples). */
export const DEFAULT_REPLICA_SET_NAME = 'rs0';
/** The replica-set configuration version a one-member set reports; it never reconfigures. */
export const REPLICA_SET_VERSION = 1;
