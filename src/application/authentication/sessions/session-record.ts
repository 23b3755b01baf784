/** One login and what descends from it: every access and refresh token carries its id (`sid`). */
export interface SessionRecord {
  /** A random UUID: the `sid` claim of the session's access tokens. */
  _id: string;
  /** The user's id as a string (as owner fields name users). */
  userId: string;
  /** SHA-256 of the one refresh token that may be used next. */
  refreshTokenHash: string;
  /** SHA-256 of the refresh tokens already used (the latest ones): presenting one again ends the session. */
  rotatedTokenHashes: string[];
  createdAt: Date;
  /** The last login or refresh. */
  lastUsedAt: Date;
  /** The session ends then unless refreshed before (sliding); MongoDB's TTL index removes it. */
  expiresAt: Date;
  userAgent?: string;
  address?: string;
}

/** Fields that never leave the server (answers, events, logs). */
export const SESSION_SECRET_FIELDS = ['refreshTokenHash', 'rotatedTokenHashes'] as const;
