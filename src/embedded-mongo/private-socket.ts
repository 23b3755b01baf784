import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A Unix socket only this user can reach: inside a 0700 folder, itself 0600 once bound. */
export interface PrivateSocket {
  /** Absolute path to bind and to connect to. */
  readonly path: string;
  /** After binding: the socket itself owner-only (the folder already keeps everyone else out). */
  restrict(): Promise<void>;
  /** Removes the socket and the folder made for it. */
  remove(): Promise<void>;
}

/** Inside a dataDir: `<dataDir>/embedded-mongo-socket/embedded-mongo.sock` (the driver wants the `.sock` suffix). */
export const SOCKET_FOLDER = 'embedded-mongo-socket';
export const SOCKET_FILE = 'embedded-mongo.sock';

/**
 * A socket path longer than this cannot be bound (sun_path holds 108 bytes on Linux, 104 on
 * macOS, the terminating NUL included): such a dataDir falls back to a private temporary folder.
 */
const MAX_SOCKET_PATH_BYTES = 103;

/**
 * Prepares the folder of the embedded server's socket: in `dataDir` when given and the path fits,
 * otherwise a fresh 0700 folder from mkdtemp under the system's temporary folder. Call it while
 * holding the dataDir lock: a socket left by a killed server is removed here.
 */
export async function preparePrivateSocket(dataDir: string | undefined): Promise<PrivateSocket> {
  const inDataDir = dataDir === undefined ? undefined : socketPathIn(dataDir);
  if (inDataDir) {
    await ownerOnlyFolder(path.dirname(inDataDir));
    await fs.rm(inDataDir, { force: true }); // a killed server's; the dataDir lock says none is running
    return privateSocket(path.dirname(inDataDir), inDataDir);
  }
  const folder = await lowerCaseTemporaryFolder();
  const socketPath = path.join(folder, SOCKET_FILE);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    await fs.rm(folder, { recursive: true, force: true });
    throw new Error(
      `the embedded database's socket path ${socketPath} is longer than ${MAX_SOCKET_PATH_BYTES} bytes: set TMPDIR ` +
        `to a shorter folder`,
    );
  }
  return privateSocket(folder, socketPath);
}

/** Where the server of `dataDir` binds its socket, when the path fits (else it uses a temporary folder). */
export function socketPathIn(dataDir: string): string | undefined {
  const socketPath = path.join(path.resolve(dataDir, SOCKET_FOLDER), SOCKET_FILE);
  return Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH_BYTES ? socketPath : undefined;
}

/** The driver's connection string for a socket (`directConnection` when the path has capitals, see below). */
export function socketUrl(socketPath: string, standalone = false): string {
  return (
    `mongodb://${encodeURIComponent(socketPath)}/` +
    `${isLowerCase(socketPath) || standalone ? '' : '?directConnection=true'}`
  );
}

/**
 * The driver lower-cases replica-set member names but not the socket path it connects to, so a
 * path with capitals never matches `hosts`: such a server is reached with `directConnection=true`.
 * The temporary folder is therefore named in lower-case hex rather than mkdtemp's mixed case.
 */
function isLowerCase(socketPath: string): boolean {
  return socketPath === socketPath.toLowerCase();
}

/** Like mkdtemp (a fresh 0700 folder no one else made) but with a lower-case name. */
async function lowerCaseTemporaryFolder(): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const folder = path.join(tmpdir(), `embedded-mongo-${randomBytes(6).toString('hex')}`);
    try {
      await fs.mkdir(folder, { mode: 0o700 });
      return folder;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 10) throw error;
    }
  }
}

function privateSocket(folder: string, socketPath: string): PrivateSocket {
  return {
    path: socketPath,
    restrict: () => fs.chmod(socketPath, 0o600),
    remove: () => fs.rm(folder, { recursive: true, force: true }),
  };
}

/** Creates `folder` 0700, or checks that an existing one is a real folder of this user and makes it 0700. */
async function ownerOnlyFolder(folder: string): Promise<void> {
  await fs.mkdir(folder, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const stat = await fs.lstat(folder);
  if (!stat.isDirectory())
    throw new Error(`the embedded database's socket folder ${folder} exists and is not a folder`);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid)
    throw new Error(`the embedded database's socket folder ${folder} belongs to another user (uid ${stat.uid})`);
  if ((stat.mode & 0o777) !== 0o700) await fs.chmod(folder, 0o700);
}
