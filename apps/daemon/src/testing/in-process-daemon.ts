import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BlitzClient } from '@blitz/client';
import { FakeClock } from '@blitz/clock';
import { Daemon } from '../daemon.js';

/** A daemon running in the test's own process, its home and a workspace folder made for it. */
export interface InProcessDaemon {
  home: string;
  /** A folder to open as a workspace, its real path. */
  workspace: string;
  daemon: Daemon;
  /** The control API, reached without a socket (`daemon.request`). */
  client: BlitzClient;
  /** Stops the daemon and removes its home and workspace. */
  stop(): Promise<void>;
}

/**
 * For the in-process tests (daemon.real.test.ts and its kin): a daemon on 127.0.0.1 port 0 whose
 * home holds `settings`, driven by `clock`. Test support: src/testing/ is left out of the build (tsconfig.json).
 */
export async function startInProcessDaemon(
  prefix: string,
  settings: string,
  clock = new FakeClock(),
  again?: Pick<InProcessDaemon, 'home' | 'workspace'>,
): Promise<InProcessDaemon> {
  // `again`: the home and workspace of a daemon stopped before (`daemon.stop()`, its files kept), as a daemon started again finds them.
  const home = again?.home ?? fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const workspace = again?.workspace ?? fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-ws-`)));
  fs.writeFileSync(path.join(home, 'settings.toml'), settings);
  const daemon = await Daemon.start({
    home,
    version: '0.0.0-test',
    port: 0,
    clock,
    env: { ...process.env, BLITZ_HOME: home },
    graceMs: 2000,
  });
  const client = new BlitzClient({ port: daemon.port, token: daemon.token }, { fetch: (input, init) => daemon.request(input, init) });
  return {
    home,
    workspace,
    daemon,
    client,
    async stop() {
      await daemon.stop();
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(workspace, { recursive: true, force: true });
    },
  };
}
