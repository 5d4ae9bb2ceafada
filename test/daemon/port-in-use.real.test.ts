import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';

let first: string;
let second: string;
let daemon: RunningDaemon | undefined;
let squatter: net.Server | undefined;
const sockets = new Set<net.Socket>();

beforeEach(() => {
  first = tempDir('blitz-port-a-');
  second = tempDir('blitz-port-b-');
});

afterEach(async () => {
  if (daemon) await daemon.stop();
  daemon = undefined;
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => (squatter ? squatter.close(resolve) : resolve(null)));
  squatter = undefined;
  await assertNoOrphans();
  for (const dir of [first, second]) fs.rmSync(dir, { recursive: true, force: true });
});

function getHealth(port: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/v1/health' }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

it('a port held by another Blitz daemon names its pid and home and how to use it, without a stack trace', async () => {
  writeSettings(first, '[daemon]\nport = 0\n');
  daemon = await startDaemonProcess(first);
  const port = daemon.state.port;
  // The one answer given without the token: who this is.
  const health = await getHealth(port);
  expect(health.status).toBe(200);
  expect(JSON.parse(health.body)).toMatchObject({ ok: true, service: 'blitz', pid: daemon.child.pid, home: first });

  writeSettings(second, `[daemon]\nport = ${port}\n`);
  const foreground = await runBlitz(['daemon'], { home: second });
  expect(foreground.code).toBe(1);
  expect(foreground.stderr).toContain(
    `blitz: the daemon cannot start: port ${port} on 127.0.0.1 is held by another Blitz daemon (pid ${daemon.child.pid}, home ${first}), not this one (home ${second}). To use that daemon, set BLITZ_HOME=${first} where this command runs`,
  );
  expect(foreground.stderr).toContain(
    `to run a second daemon beside it, set [daemon] port in ${second}/settings.toml (0 picks a free one)`,
  );
  expect(foreground.stderr).not.toMatch(/\n\s+at /);

  const background = await runBlitz(['daemon', 'start'], { home: second });
  expect(background.code).toBe(1);
  expect(background.stderr).toContain(`is held by another Blitz daemon (pid ${daemon.child.pid}, home ${first})`);
  expect(background.stderr).not.toMatch(/\n\s+at /);
});

it('a port held by something else says so and names the setting', async () => {
  squatter = net.createServer((socket) => {
    sockets.add(socket);
    socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi');
  });
  const port = await new Promise<number>((resolve) =>
    squatter!.listen(0, '127.0.0.1', () => resolve((squatter!.address() as net.AddressInfo).port)),
  );
  writeSettings(second, `[daemon]\nport = ${port}\n`);
  const result = await runBlitz(['daemon'], { home: second });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(
    `blitz: the daemon cannot start: port ${port} on 127.0.0.1 is in use; set [daemon] port in ${second}/settings.toml (0 picks a free one)`,
  );
  expect(result.stderr).not.toMatch(/\n\s+at /);
});
