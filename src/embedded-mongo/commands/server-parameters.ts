import { Long, type Document } from 'bson';
import { CommandError } from '../base/command-error';
import { FEATURE_COMPATIBILITY_VERSION } from '../base/server-identity';

/** Parameters mongod lets `getParameter` read; `setParameter` may change only the settable ones. */
const READ_ONLY_PARAMETERS: Document = {
  featureCompatibilityVersion: { version: FEATURE_COMPATIBILITY_VERSION },
  authenticationMechanisms: [],
  maxBSONDepth: 100,
};

/**
 * Runtime parameters that are harmless to accept here: their values are kept and reported as
 * mongod would; of them, only the TTL monitor's two change what this server does.
 */
const SETTABLE_DEFAULTS: Document = {
  logLevel: 0,
  notablescan: false,
  cursorTimeoutMillis: Long.fromNumber(600000),
  transactionLifetimeLimitSeconds: 60,
  maxTransactionLockRequestTimeoutMillis: 5,
  ttlMonitorEnabled: true,
  ttlMonitorSleepSecs: 60,
  internalQueryMaxBlockingSortMemoryUsageBytes: 104857600,
  internalQueryExecYieldIterations: 1000,
  quiet: false,
};

/** One server's parameters, as `setParameter` left them. */
export class ServerParameters {
  private readonly settable = new Map<string, unknown>(Object.entries(SETTABLE_DEFAULTS));

  get(name: string): unknown {
    return Object.hasOwn(READ_ONLY_PARAMETERS, name) ? READ_ONLY_PARAMETERS[name] : this.settable.get(name);
  }

  all(): Document {
    return { ...READ_ONLY_PARAMETERS, ...Object.fromEntries(this.settable) };
  }

  /** Sets a parameter; the value must have the type of the current one. Returns the previous value. */
  set(name: string, value: unknown): unknown {
    if (!this.settable.has(name)) {
      if (Object.hasOwn(READ_ONLY_PARAMETERS, name))
        throw new CommandError('IllegalOperation', `not allowed to change [${name}] at runtime`);
      throw new CommandError(
        'InvalidOptions',
        `attempted to set unrecognized parameter [${name}], use help:true to see options `,
      );
    }
    const was = this.settable.get(name);
    this.settable.set(name, coerce(name, was, value));
    return was;
  }
}

function coerce(name: string, current: unknown, value: unknown): unknown {
  if (typeof current === 'boolean') {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'number') return value !== 0;
  } else if (typeof value === 'number' && Number.isFinite(value)) {
    return current instanceof Long ? Long.fromNumber(value) : value;
  } else if (value instanceof Long) {
    return current instanceof Long ? value : value.toNumber();
  }
  throw new CommandError('BadValue', `Invalid value for parameter ${name}: ${String(value)}`);
}
