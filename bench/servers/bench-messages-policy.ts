/**
 * The bench's policy on `messages`, shaped like the skeleton's: everyone signed in reads and posts;
 * `likedBy` for the author only; an admin reads everything. Shared by the timed server and the
 * instruction counter (which applies it with the framework of the tree it counts), so both measure
 * the same rules.
 */
import type { ServicePolicy } from '../../src';

export const BENCH_MESSAGES_POLICY: ServicePolicy = (caller, { can }) => {
  if (caller.anonymous) return;
  can('read', ['_id', 'id', 'text', 'userId']);
  can('read', ['likedBy'], { userId: caller.id });
  can('create', ['text', 'userId']);
  if (caller.roles.includes('admin')) can('read');
};

/** The methods the bench calls, each under the policy. */
export const BENCH_POLICY_METHODS = ['find', 'get', 'create'];
