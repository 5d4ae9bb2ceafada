// The clone's own launcher (apps/cli/bin/blitz.js), which runs the workspaces' unbundled
// `dist/`: what a developer runs after `npm run build`. Every other real test runs the staged
// package (global-setup.ts), so what only the unbundled layout does is checked here: the daemon
// entry `blitz daemon start` spawns, and the static files (the settings page, the word-vector
// table) found in each workspace's `dist-static/` instead of the package's `static/`.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readDaemonState } from '@blitz/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNoOrphans, canListProcesses } from '../../packages/core/src/testing/no-orphans.js';
import { BLITZ_BIN, CLONE_BIN, REPO_ROOT, runBlitz, tempDir } from '../support/blitz-cli.js';
import { writeSettings } from '../support/daemon-process.js';
import { settingsAddress } from '../support/settings-browser.js';
import { firstSearchHit } from './first-search-hit.js';

const EVERYTHING = path.join(
  path.dirname(
    createRequire(path.join(REPO_ROOT, 'packages', 'core', 'package.json')).resolve('@modelcontextprotocol/server-everything/package.json'),
  ),
  'dist',
  'index.js',
);

let home: string;
let workspace: string;
const daemons = new Set<number>();

const clone = (args: string[]) => runBlitz(args, { home, bin: CLONE_BIN });

beforeAll(() => {
  home = tempDir('blitz-clone-home-');
  workspace = tempDir('blitz-clone-ws-');
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[hub]\ndeferred = "always"\n\n[[mcp.servers]]\nname = "everything"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\nsandbox = false\nauto_approve = true\n`,
  );
});

afterAll(async () => {
  const state = home ? readDaemonState(home) : undefined;
  if (state) {
    daemons.add(state.pid);
    await clone(['daemon', 'stop']);
  }
  await assertNoOrphans({ sessions: daemons, timeoutMs: 20_000 });
  for (const dir of [home, workspace]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the clone's launcher", () => {
  it('is not the package the other tests run, and prints the same help', async () => {
    expect(BLITZ_BIN).not.toBe(CLONE_BIN);
    const help = await clone(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe((await runBlitz(['--help'], { home })).stdout);
  });

  it("blitz daemon start runs apps/daemon's own dist/main.js", async () => {
    const start = await clone(['daemon', 'start']);
    expect(start.stderr).toBe('');
    expect(start.stdout).toMatch(/^Started Blitz daemon \(pid \d+, version [\d.]+\) on http:\/\/127\.0\.0\.1:\d+\n$/);
    const state = readDaemonState(home)!;
    daemons.add(state.pid);
    if (canListProcesses) {
      const argv = fs.readFileSync(`/proc/${state.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      expect(argv).toEqual([process.execPath, path.join(fs.realpathSync(REPO_ROOT), 'apps', 'daemon', 'dist', 'main.js')]);
    }
  });

  it("serves the settings page from apps/settings' dist-static", async () => {
    const url = await settingsAddress(home, CLONE_BIN);
    const signIn = await fetch(url, { redirect: 'manual' });
    const cookie = signIn.headers.get('set-cookie')?.split(';')[0];
    expect(cookie, `status ${signIn.status}`).toBeDefined();
    const page = await fetch(new URL('/settings/', url), { headers: { cookie: cookie! } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
    expect(script, html).toBeDefined();
    const asset = await fetch(new URL(script!, page.url), { headers: { cookie: cookie! } });
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe(
      fs.readFileSync(
        path.join(REPO_ROOT, 'apps', 'settings', 'dist-static', new URL(script!, page.url).pathname.replace(/^\/settings\//, '')),
        'utf8',
      ),
    );
  });

  it('search_tools ranks with the word-vector table of packages/core: "photo" finds get-tiny-image', async () => {
    const hit = await firstSearchHit(
      {
        command: process.execPath,
        args: [CLONE_BIN, 'connect'],
        cwd: workspace,
        env: { PATH: process.env.PATH!, HOME: home, BLITZ_HOME: home },
      },
      'photo',
    );
    expect(hit).toBe('get-tiny-image');
  });

  it('blitz daemon stop leaves no process behind', async () => {
    expect((await clone(['daemon', 'stop'])).code).toBe(0);
    await assertNoOrphans({ sessions: daemons, timeoutMs: 20_000 });
    expect(readDaemonState(home)).toBeUndefined();
  });
});
