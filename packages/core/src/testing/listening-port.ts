/** Test support: a free loopback port for a server that takes its port from us, and waiting until it listens. */
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

/** A port free on 127.0.0.1 a moment ago (for servers that cannot be told to use port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Resolves once `child` accepts connections on `port`; fails if it exits first or after 20 s of tries. */
export async function waitForPort(port: number, child: ChildProcess, name = 'the server'): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${name} did not listen on ${port}`);
}
