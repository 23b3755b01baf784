import type { MongoClient } from 'mongodb';
import type { RunOnRequirement } from './unified-types';

export interface ServerInfo {
  version: string;
  topology: 'single' | 'replicaset' | 'sharded' | 'load-balanced';
}

/** What the server says it is; the subset assumes a 7.0 standalone, so a different claim is reported. */
export async function describeServer(internal: MongoClient): Promise<ServerInfo> {
  const admin = internal.db('admin');
  const buildInfo = await admin.command({ buildInfo: 1 });
  const hello = await admin.command({ hello: 1 });
  const topology = hello.msg === 'isdbgrid' ? 'sharded' : hello.setName ? 'replicaset' : 'single';
  return { version: String(buildInfo.version), topology };
}

export function compareVersions(a: string, b: string): number {
  const parts = (v: string): number[] => [...v.split('.').map((p) => Number.parseInt(p, 10) || 0), 0, 0, 0].slice(0, 3);
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i += 1) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

/** Why one requirement is not met, or undefined when it is. */
function unmet(req: RunOnRequirement, server: ServerInfo): string | undefined {
  if (req.minServerVersion && compareVersions(server.version, req.minServerVersion) < 0)
    return `needs >= ${req.minServerVersion}`;
  if (req.maxServerVersion && compareVersions(server.version, req.maxServerVersion) > 0)
    return `needs <= ${req.maxServerVersion}`;
  if (req.topologies && !req.topologies.includes(server.topology)) return `needs topology ${req.topologies.join('|')}`;
  if (req.serverless === 'require') return 'needs serverless';
  if (req.auth === true) return 'needs auth';
  if (req.csfle === true) return 'needs csfle';
  if (req.serverParameters) return 'needs serverParameters (not checked by this runner)';
  return undefined;
}

/** Undefined when any requirement holds (the spec's "one or more"), else why none does. */
export function requirementsUnmet(reqs: RunOnRequirement[] | undefined, server: ServerInfo): string | undefined {
  if (!reqs || reqs.length === 0) return undefined;
  const reasons = reqs.map((req) => unmet(req, server));
  if (reasons.some((r) => r === undefined)) return undefined;
  return `runOnRequirements not met by server ${server.version} (${server.topology}): ${reasons.join('; ')}`;
}
