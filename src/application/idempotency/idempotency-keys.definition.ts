import { defineService } from '../services/service-definition';

/**
 * Where the records are kept: an internal service (no transport reaches it) with string ids and a
 * TTL index, so a MongoDB server deletes expired keys itself.
 */
export const IDEMPOTENCY_KEYS = defineService({
  path: 'idempotency-keys',
  description: 'Idempotency keys of writes (internal).',
  methods: [],
  dto: { create: Object, patch: Object, query: Object },
  id: { field: '_id', type: 'uuid' },
  multi: ['remove'],
  indexes: [{ fields: { expiresAt: 1 }, expireAfterSeconds: 0 }],
});
