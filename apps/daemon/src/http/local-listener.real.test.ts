import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalListener } from './local-listener.js';

let dir: string;
let listener: LocalListener | undefined;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-local-'));
});

afterEach(async () => {
  await listener?.close();
  listener = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A listener that answers each connection with "hi" and ends it; errors once listening are thrown at the test. */
const greeter = () =>
  new LocalListener(
    (socket) => socket.end('hi'),
    (err) => {
      throw err;
    },
  );

function greeting(socketPath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    net
      .connect(socketPath)
      .on('data', (d: Buffer) => (text += d.toString()))
      .on('end', () => resolve(text))
      .on('error', reject);
  });
}

describe.skipIf(process.platform === 'win32')('LocalListener (Unix domain socket)', () => {
  it('listens at the path, its state folder made, the socket 0600 whatever the umask', async () => {
    const socketPath = path.join(dir, 'state', 'mcp.sock');
    const mask = process.umask(0o000);
    try {
      listener = greeter();
      await listener.listen(socketPath);
    } finally {
      process.umask(mask);
    }
    expect(fs.statSync(socketPath).mode & 0o777).toBe(0o600);
    expect(await greeting(socketPath)).toBe('hi');
  });

  it('takes the place of a socket a killed daemon left, and removes its own when closed', async () => {
    const socketPath = path.join(dir, 'mcp.sock');
    // What a killed daemon leaves behind: its socket file, nobody listening on it.
    const killed = spawnSync(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`,
    ]);
    expect(killed.signal).toBe('SIGKILL');
    expect(fs.lstatSync(socketPath).isSocket()).toBe(true);
    listener = greeter();
    await listener.listen(socketPath);
    expect(await greeting(socketPath)).toBe('hi');
    await listener.close();
    listener = undefined;
    expect(fs.existsSync(socketPath)).toBe(false);
  });

  it('leaves a file that is not a socket alone, and says why it cannot listen', async () => {
    const socketPath = path.join(dir, 'mcp.sock');
    fs.writeFileSync(socketPath, 'mine');
    listener = greeter();
    await expect(listener.listen(socketPath)).rejects.toThrow(/EADDRINUSE/);
    expect(fs.readFileSync(socketPath, 'utf8')).toBe('mine');
  });

  it('an error once listening (a connection the OS could not accept) is handed on, and the socket goes on serving', async () => {
    const socketPath = path.join(dir, 'mcp.sock');
    const server = net.createServer();
    const errors: Error[] = [];
    listener = new LocalListener(
      (socket) => socket.end('hi'),
      (err) => errors.push(err),
      server,
    );
    await listener.listen(socketPath);
    // What accept(2) failing makes the server emit (Node drops EMFILE's connections itself, so no test can run out of descriptors for real).
    const failure = Object.assign(new Error('accept ENFILE'), { code: 'ENFILE', syscall: 'accept' });
    server.emit('error', failure);
    expect(errors).toEqual([failure]);
    expect(await greeting(socketPath)).toBe('hi');
  });
});
