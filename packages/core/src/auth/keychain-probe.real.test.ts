import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { assertNoOrphans } from '../testing/no-orphans.js';
import { probeKeychain } from './keychain-probe.js';

let dir: string;
let bus: net.Server;
const sockets: net.Socket[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'blitz-bus-'));
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise((resolve) => bus?.close(resolve));
  await rm(dir, { recursive: true, force: true });
  await assertNoOrphans();
});

describe('probeKeychain', () => {
  // A session bus that takes the connection and never says a word: a keychain that does not answer.
  it.skipIf(process.platform !== 'linux')(
    'kills a probe no keychain answers once the clock reaches its timeout',
    { timeout: 30_000 },
    async () => {
      const address = path.join(dir, 'bus');
      const connected = new Promise<void>((resolve) => {
        bus = net.createServer((socket) => {
          sockets.push(socket);
          resolve();
        });
      });
      await new Promise<void>((resolve) => bus.listen(address, resolve));
      const clock = new FakeClock();
      // Ten minutes: only the injected clock, never the wall clock, can end it within the test's time.
      const probe = probeKeychain({ env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: `unix:path=${address}` }, clock, timeoutMs: 600_000 });
      // The probe's child is asking (it reached the bus) before time moves on.
      await Promise.race([connected, probe]);
      clock.advance(600_000);
      expect(await probe).toEqual({ ok: false, reason: 'it did not answer within 600s (locked, or waiting for a password prompt?)' });
    },
  );
});
