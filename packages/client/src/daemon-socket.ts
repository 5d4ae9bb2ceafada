import path from 'node:path';

/** The longest socket path bind(2) takes: `sun_path` less its NUL (108 bytes on Linux, 104 elsewhere). */
const MAX_SOCKET_BYTES: Partial<Record<NodeJS.Platform, number>> = { linux: 107 };
const MAX_SOCKET_BYTES_ELSEWHERE = 103;
/** Windows takes a pipe name of up to 256 characters. */
const MAX_PIPE_CHARS = 256;

/**
 * Where the daemon of `home` listens locally, besides its loopback port: a Unix domain socket
 * `state/mcp.sock` beside daemon.json (made 0600), or on Windows a named pipe named after the
 * home (a pipe name may hold any character but `\`, so the path's `\` become `/`). Undefined
 * when the path would be too long for the platform: the daemon then listens on its port only.
 */
export function daemonSocketPath(home: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'win32') {
    const name = `\\\\.\\pipe\\blitz-${path.win32.resolve(home).replaceAll('\\', '/')}`;
    return name.length <= MAX_PIPE_CHARS ? name : undefined;
  }
  const socket = path.posix.join(home, 'state', 'mcp.sock');
  return Buffer.byteLength(socket) <= (MAX_SOCKET_BYTES[platform] ?? MAX_SOCKET_BYTES_ELSEWHERE) ? socket : undefined;
}
