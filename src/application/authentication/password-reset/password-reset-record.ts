import { defineService } from '../../services/service-definition';

/** One reset link that may still be used: only its token's hash is kept, until it is used or an hour has passed. */
export interface PasswordResetRecord {
  _id: string;
  userId: string;
  tokenHash: string;
  /** MongoDB's TTL index removes it then; a link past it is refused anyway. */
  expiresAt: Date;
}

class NoClientData {}

/** The store of reset links: internal only (no transport reaches it, nothing is published). */
export const passwordResetTokensStore = defineService({
  path: 'password-reset-tokens',
  methods: [],
  dto: { create: NoClientData, patch: NoClientData, query: NoClientData },
  id: { type: 'uuid' },
  indexes: [{ fields: { expiresAt: 1 }, expireAfterSeconds: 0 }],
  hiddenFields: ['tokenHash'],
});
