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
  storage?: TokenStorage;
}

export interface AuthenticationResult {
  accessToken: string;
  authentication?: Record<string, unknown>;
  user?: Record<string, any>;
  [key: string]: unknown;
}

interface SocketEvents {
  on(event: string, listener: (...args: any[]) => void): unknown;
}

class MemoryTokenStorage implements TokenStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string) { return this.items.get(key); }
  setItem(key: string, value: string) { this.items.set(key, value); }
  removeItem(key: string) { this.items.delete(key); }
}

/**
 * Login, stored token and re-authentication for a client app on either connection. Over REST
 * every call carries `Authorization: Bearer <token>`; over a socket the login authenticates the
 * connection, and after the socket drops and reconnects the stored token signs it in again
 * before any buffered call. Configure it after the connection: `app.configure(auth)`.
 */
export class AuthenticationClient {
  private app?: Application;
  private pending?: Promise<AuthenticationResult>;
  private result?: AuthenticationResult;
  private readonly path: string;
  private readonly storageKey: string;
  readonly storage: TokenStorage;

  constructor(options: AuthenticationClientOptions = {}) {
    this.path = options.path ?? 'authentication';
    this.storageKey = options.storageKey ?? 'accessToken';
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
    // socket.io-client buffers calls while disconnected: the re-login is queued first.
    socket?.on('disconnect', (reason: string) => {
      if (this.result && reason !== 'io client disconnect') void this.reAuthenticate(true).catch(() => undefined);
    });
  };

  /** Logs in with a strategy (`{ strategy: 'local', email, password }`) and stores the token. */
  authenticate(data: Record<string, unknown>): Promise<AuthenticationResult> {
    const attempt = this.service()
      .create(data)
      .then(async (result: AuthenticationResult) => {
        this.result = result;
        await this.storage.setItem(this.storageKey, result.accessToken);
        return result;
      })
      .catch(async (error: { code?: number }) => {
        this.result = undefined;
        // A refused token is useless: forget it.
        if (error?.code === 401) await this.storage.removeItem(this.storageKey);
        throw error;
      })
      .finally(() => {
        if (this.pending === attempt) this.pending = undefined;
      });
    this.pending = attempt;
    return attempt;
  }

  /** Signs in with the stored token; with `force` false an existing login is returned as it is. */
  async reAuthenticate(force = false): Promise<AuthenticationResult> {
    if (!force && this.pending) return this.pending;
    if (!force && this.result) return this.result;
    const accessToken = await this.storage.getItem(this.storageKey);
    if (!accessToken) throw Object.assign(new Error('No accessToken found in storage'), { name: 'NotAuthenticated', code: 401 });
    return this.authenticate({ strategy: 'jwt', accessToken });
  }

  /** Logs out on the server (the socket becomes anonymous) and forgets the token. */
  async logout(): Promise<AuthenticationResult | null> {
    const was = this.result;
    this.result = undefined;
    await this.storage.removeItem(this.storageKey);
    if (!was) return null;
    return this.service().remove(null, { headers: { Authorization: `Bearer ${was.accessToken}` } }).catch(() => null);
  }

  private async beforeCall(context: HookContext): Promise<void> {
    if (context.path === this.path) return;
    if (this.pending) await this.pending.catch(() => undefined);
    const token = this.result?.accessToken;
    if (token) context.params = { ...context.params, headers: { ...context.params.headers, Authorization: `Bearer ${token}` } };
  }

  private service(): any {
    if (!this.app) throw new Error('Configure the authentication client on an app first: app.configure(auth.configure)');
    return this.app.service(this.path);
  }
}

/** `const auth = authenticationClient({ storage: window.localStorage }); app.configure(auth.configure);` */
export function authenticationClient(options: AuthenticationClientOptions = {}): AuthenticationClient {
  return new AuthenticationClient(options);
}
