import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * The daemon's HTTP server on a local socket besides its loopback port (`daemonSocketPath`): a
 * Unix domain socket, or a named pipe on Windows. Each connection is handed to the HTTP server
 * as its own, so every request there is guarded as on the port (Host, Origin, token); the
 * socket saves `blitz connect` the TCP stack both ways. Made 0600 as it is bound.
 *
 * A named pipe keeps Windows' default ACL: Node cannot set one (its `readableAll` and
 * `writableAll` only widen it; neither is used). That ACL gives full control to SYSTEM,
 * Administrators and the daemon's user, and read to Everyone and Anonymous: read alone
 * cannot send a request, and a request carries the token, guarded as on the port. Node
 * creates the pipe as its first instance (FILE_FLAG_FIRST_PIPE_INSTANCE) and adding one takes
 * write access (FILE_CREATE_PIPE_INSTANCE), so while the daemon listens no one else answers on that name; a name
 * taken before it starts fails the listen, and daemon.json then names no socket. What is
 * left — a pipe made by someone else after a daemon was killed, while daemon.json still names
 * it — is what the loopback port has too (docs/daemon.md, "Control API").
 */
export class LocalListener {
  readonly #server: net.Server;
  #path: string | undefined;

  /**
   * `onError`: an error of the socket once it listens — a connection it could not accept
   * (ENFILE, ENOMEM, …). The socket goes on listening and the port serves as before; with no
   * listener such an error would end the daemon. `server`: the socket's server (tests hand
   * their own, to make it fail as the OS would).
   */
  constructor(accept: (socket: net.Socket) => void, onError: (err: Error) => void, server = net.createServer()) {
    // Node's own EMFILE handling drops such connections quietly; what else accept(2) fails with comes here.
    this.#server = server.on('connection', accept);
    this.#server.on('error', (err) => {
      if (this.#path !== undefined) onError(err);
    });
  }

  /** Listens at `socketPath`, first removing a socket a killed daemon left there (the instance lock says none runs). */
  async listen(socketPath: string): Promise<void> {
    const pipe = socketPath.startsWith('\\\\');
    if (!pipe) {
      fs.mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
      removeSocketFile(socketPath);
    }
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      // bind(2) happens within listen(), under this mask: the socket is never open to others.
      const mask = pipe ? undefined : process.umask(0o177);
      try {
        this.#server.listen(socketPath, () => {
          this.#server.off('error', reject);
          resolve();
        });
      } finally {
        if (mask !== undefined) process.umask(mask);
      }
    });
    // Recorded first: a socket that could not be made 0600 is closed and removed, never left listening.
    this.#path = socketPath;
    try {
      if (!pipe) fs.chmodSync(socketPath, 0o600);
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  /** Stops taking connections and removes the socket; settles once the connections it took have closed. */
  async close(): Promise<void> {
    const socketPath = this.#path;
    if (socketPath === undefined) return;
    this.#path = undefined;
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    if (!socketPath.startsWith('\\\\')) removeSocketFile(socketPath);
  }
}

function removeSocketFile(socketPath: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(socketPath);
  } catch {
    return;
  }
  // Anything but a socket is not ours to remove: listen fails on it and says so.
  if (stat.isSocket()) fs.rmSync(socketPath, { force: true });
}
