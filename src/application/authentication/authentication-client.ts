import { copyWith } from '../../domain/plain-record';
import type { Application } from '../app/application';
import type { HookContext } from '../hooks/hook-context';

/** The app setting under which a socket client connection keeps its socket. */
export const CLIENT_SOCKET_SETTING = 'socket';

/** Where the token is kept: `window.localStorage` in a browser, memory by default. */
export interface TokenStorage {
  getItem(key: string): string | null | undefined | Promise<string | null | undefined>;
  setItem(key: string, value: string): unknown;
  removeItem(key: string): unknown;
}

export interface AuthenticationClientOptions {
  /** Path of the authentication service. Default 'authentication'. */
  path?: string;
  /** Storage key of the access token. Default 'accessToken'. */
  storageKey?: string;
  /** Storage key of the refresh token. Default 'refreshToken'. */
  refreshStorageKey?: string;
  storage?: TokenStorage;
  /**
   * How long before the access token expires it is refreshed (with the stored refresh token), in
   * milliseconds; at most a fifth of the token's lifetime. Default 60 000.
   */
  refreshBeforeMs?: number;
}

export interface AuthenticationResult {
  accessToken: string;
  /** Present where the server keeps sessions: the next refresh token. */
  refreshToken?: string;
  authentication?: Record<string, unknown>;
  user?: Record<string, any>;
  [key: string]: unknown;
}

/** What the client reads of a socket.io client socket. */
interface SocketEvents {
  on(event: string, listener: (...args: any[]) => void): unknown;
  /** It will reconnect by itself (not closed by the application, nor by the server). */
  readonly active: boolean;
  /** The last connection resumed the previous session (connection state recovery). */
  readonly recovered: boolean;
}

class MemoryTokenStorage implements TokenStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

/** Seconds since the epoch at which a token expires (its `exp`, read without verifying: the server verifies). */
function expiryOf(token: string): number | undefined {
  try {
    const part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const exp = (JSON.parse(atob(part)) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Login, stored tokens and re-authentication for a client app on either connection. Over REST
 * every call carries `Authorization: Bearer <token>`; over a socket the login authenticates the
 * connection, and after the socket drops, calls wait for it to come back: resumed (the server kept
 * its login) they go at once, else the stored token signs the new connection in first. With a refresh token (the
 * server's sessions), the access token is exchanged shortly before it expires, and a call that finds it expired waits
 * for the exchange, so the application never sees the expiry; over a socket the exchange signs the same
 * connection in again. Configure it after the connection: `app.configure(auth)`.
 */
export class AuthenticationClient {
  private app?: Application;
  private pending?: Promise<AuthenticationResult>;
  private refreshing?: Promise<AuthenticationResult>;
  private result?: AuthenticationResult;
  private refreshTimer?: ReturnType<typeof setTimeout>;
  /** While the socket is away and will come back: calls wait for it (and for the login it may need). */
  private socketBack?: Promise<void>;
  private openSocketGate?: () => void;
  private readonly path: string;
  private readonly storageKey: string;
  private readonly refreshStorageKey: string;
  private readonly refreshBeforeMs: number;
  readonly storage: TokenStorage;

  constructor(options: AuthenticationClientOptions = {}) {
    this.path = options.path ?? 'authentication';
    this.storageKey = options.storageKey ?? 'accessToken';
    this.refreshStorageKey = options.refreshStorageKey ?? 'refreshToken';
    this.refreshBeforeMs = options.refreshBeforeMs ?? 60_000;
    this.storage = options.storage ?? new MemoryTokenStorage();
  }

  get authenticated(): boolean {
    return this.result !== undefined;
  }

  /** `app.configure(auth)`: every call waits for a login in progress and carries the token (REST). */
  readonly configure = (app: Application): void => {
    this.app = app;
    app.hooks({ before: { all: [(context: HookContext) => this.beforeCall(context)] } });
    const socket = app.get<SocketEvents>(CLIENT_SOCKET_SETTING);
    // Calls made while the socket is away wait here rather than in socket.io's buffer, which it
    // sends before any 'connect' listener runs: a new connection is anonymous until signed in again.
    socket?.on('disconnect', () => {
      if (!this.result || !socket.active || this.socketBack) return;
      this.socketBack = new Promise<void>((resolve) => (this.openSocketGate = resolve));
    });
    socket?.on('connect', () => {
      const open = this.openSocketGate;
      if (!open) return;
      this.openSocketGate = undefined;
      const reopen = () => {
        this.socketBack = undefined;
        open();
      };
      // A resumed connection is still signed in on the server (and its refresh still armed here).
      if (socket.recovered) return reopen();
      void this.reAuthenticate(true)
        .catch(() => undefined)
        .finally(reopen);
    });
  };

  /** Logs in with a strategy (`{ strategy: 'local', email, password }`) and stores the tokens. */
  authenticate(data: Record<string, unknown>): Promise<AuthenticationResult> {
    this.cancelRefresh();
    const attempt = this.service()
      .create(data)
      .then(async (result: AuthenticationResult) => {
        this.result = result;
        await this.storage.setItem(this.storageKey, result.accessToken);
        if (typeof result.refreshToken === 'string')
          await this.storage.setItem(this.refreshStorageKey, result.refreshToken);
        this.scheduleRefresh(result.accessToken);
        return result;
      })
      .catch(async (error: { code?: number }) => {
        this.result = undefined;
        // A refused token is useless: forget it (a refused refresh token ends the session here too).
        if (error?.code === 401) {
          await this.storage.removeItem(this.storageKey);
          if (data.strategy === 'refresh') await this.storage.removeItem(this.refreshStorageKey);
        }
        throw error;
      })
      .finally(() => {
        if (this.pending === attempt) this.pending = undefined;
      });
    this.pending = attempt;
    return attempt;
  }

  /**
   * Signs in with the stored access token, or, when it has expired or is refused, with the stored
   * refresh token; with `force` false an existing login is returned as it is.
   */
  async reAuthenticate(force = false): Promise<AuthenticationResult> {
    if (!force && this.pending) return this.pending;
    if (!force && this.result) return this.result;
    const accessToken = await this.storage.getItem(this.storageKey);
    const refreshToken = await this.storage.getItem(this.refreshStorageKey);
    if (accessToken && !(refreshToken && this.expiresWithin(accessToken, 0))) {
      try {
        return await this.authenticate({ strategy: 'jwt', accessToken });
      } catch (error) {
        if (!refreshToken || (error as { code?: number })?.code !== 401) throw error;
      }
    }
    if (refreshToken) return this.refresh();
    throw Object.assign(new Error('No accessToken found in storage'), { name: 'NotAuthenticated', code: 401 });
  }

  /** Exchanges the stored refresh token for new tokens of the same session (once however many calls ask). */
  async refresh(): Promise<AuthenticationResult> {
    if (this.refreshing) return this.refreshing;
    const refreshToken = await this.storage.getItem(this.refreshStorageKey);
    if (!refreshToken)
      throw Object.assign(new Error('No refreshToken found in storage'), { name: 'NotAuthenticated', code: 401 });
    const attempt = this.authenticate({ strategy: 'refresh', refreshToken }).finally(() => {
      if (this.refreshing === attempt) this.refreshing = undefined;
    });
    this.refreshing = attempt;
    return attempt;
  }

  /** Logs out on the server (ending the session; the socket becomes anonymous) and forgets the tokens. */
  async logout(): Promise<AuthenticationResult | null> {
    const was = this.result;
    this.result = undefined;
    this.cancelRefresh();
    await this.storage.removeItem(this.storageKey);
    await this.storage.removeItem(this.refreshStorageKey);
    if (!was) return null;
    return this.service()
      .remove(null, { headers: { Authorization: `Bearer ${was.accessToken}` } })
      .catch(() => null);
  }

  private async beforeCall(context: HookContext): Promise<void> {
    if (context.path === this.path) return;
    if (this.socketBack) await this.socketBack;
    if (this.pending) await this.pending.catch(() => undefined);
    // A token past its time (a timer delayed by a sleeping device) is refreshed before the call.
    if (
      this.result &&
      this.expiresWithin(this.result.accessToken, 0) &&
      (await this.storage.getItem(this.refreshStorageKey))
    )
      await this.refresh().catch(() => undefined);
    const token = this.result?.accessToken;
    if (token)
      context.params = copyWith(context.params, {
        headers: copyWith(context.params.headers ?? {}, { Authorization: `Bearer ${token}` }),
      });
  }

  /** Arms the exchange of `accessToken` shortly before it expires, if there is a refresh token to exchange. */
  private scheduleRefresh(accessToken: string): void {
    const exp = expiryOf(accessToken);
    if (exp === undefined || typeof this.result?.refreshToken !== 'string') return;
    const lifetimeMs = exp * 1000 - Date.now();
    const delay = Math.max(0, lifetimeMs - Math.min(this.refreshBeforeMs, lifetimeMs / 5));
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      // A failed exchange leaves the client signed out; the application sees it on its next call.
      void this.refresh().catch(() => undefined);
    }, delay);
    // In Node, a pending refresh does not keep the process alive.
    (this.refreshTimer as { unref?: () => void }).unref?.();
  }

  private cancelRefresh(): void {
    if (this.refreshTimer !== undefined) clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
  }

  private expiresWithin(accessToken: string, ms: number): boolean {
    const exp = expiryOf(accessToken);
    return exp !== undefined && exp * 1000 - Date.now() <= ms;
  }

  private service(): any {
    if (!this.app)
      throw new Error('Configure the authentication client on an app first: app.configure(auth.configure)');
    return this.app.service(this.path);
  }
}

/** `const auth = authenticationClient({ storage: window.localStorage }); app.configure(auth.configure);` */
export function authenticationClient(options: AuthenticationClientOptions = {}): AuthenticationClient {
  return new AuthenticationClient(options);
}
