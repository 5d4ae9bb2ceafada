// The packed package, installed from its tarball into a temporary prefix with an empty npm
// cache, and run as a user runs it: `blitz` on PATH, no clone, no dev dependency.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readDaemonState } from '@blitz/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeHelper, waitFor } from '../../apps/tray/src/testing/fake-helper.js';
import { assertNoOrphans, canListProcesses } from '../../packages/core/src/testing/no-orphans.js';
import { CLONE_BIN, REPO_ROOT, runBlitz, tempDir } from '../support/blitz-cli.js';
import { writeSettings } from '../support/daemon-process.js';
import { startServer } from '../fixtures/http/restartable-server.mjs';
import { firstSearchHit } from './first-search-hit.js';
import { filesMentioning, installPackage, type InstalledPackage } from './installed-package.js';

const EVERYTHING = path.join(
  path.dirname(
    createRequire(path.join(REPO_ROOT, 'packages', 'core', 'package.json')).resolve('@modelcontextprotocol/server-everything/package.json'),
  ),
  'dist',
  'index.js',
);
const CLI_VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'apps', 'cli', 'package.json'), 'utf8')) as { version: string })
  .version;

const settings = (hub = ''): string =>
  `[daemon]\nport = 0\n${hub}\n[[mcp.servers]]\nname = "everything"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\nsandbox = false\nauto_approve = true\n`;

let pkg: InstalledPackage;
let home: string;
let workspace: string;
/** Daemons started detached (each leads its own session), for the final no-orphans check. */
const daemons = new Set<number>();

beforeAll(async () => {
  pkg = await installPackage();
  home = tempDir('blitz-install-home-');
  workspace = tempDir('blitz-install-ws-');
  writeSettings(home, settings());
}, 600_000);

afterAll(async () => {
  const state = home ? readDaemonState(home) : undefined;
  if (state) {
    daemons.add(state.pid);
    await pkg.run(['daemon', 'stop'], { home });
  }
  await assertNoOrphans({ sessions: daemons, timeoutMs: 20_000 });
  pkg?.remove();
  for (const dir of [home, workspace]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The command line of a live process. */
function commandLine(pid: number): string[] {
  return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

describe('the installed package', () => {
  it('is one package: the linked `blitz`, its engines, and no path into the clone it was built in', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(pkg.packageDir, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: '@blitz-mcp/blitz',
      version: CLI_VERSION,
      engines: { node: '>=20.18.1' },
      bin: { blitz: 'bin/blitz.cjs' },
    });
    expect(manifest.devDependencies).toBeUndefined();
    expect(Object.keys(manifest.dependencies as object).sort()).toEqual(['@napi-rs/keyring', 'node-notifier', 'synonyms', 'systray2']);
    expect(fs.realpathSync(pkg.bin)).toBe(path.join(pkg.packageDir, 'bin', 'blitz.cjs'));
    expect(filesMentioning(pkg.packageDir, REPO_ROOT)).toEqual([]);
  });

  it('blitz --version prints the version', async () => {
    expect(await pkg.run(['--version'], { home })).toEqual({ code: 0, stdout: `${CLI_VERSION}\n`, stderr: '' });
  });

  it("blitz --help is the clone's: every command's module loads from the bundle", async () => {
    const installed = await pkg.run(['--help'], { home });
    expect(installed.code).toBe(0);
    expect(installed.stdout).toBe((await runBlitz(['--help'], { home, bin: CLONE_BIN })).stdout);
    expect(installed.stdout).toMatch(/^ {2}connect /m);
  });

  it('blitz clients connect writes an entry that runs the installed blitz', async () => {
    fs.mkdirSync(path.join(home, '.cursor'), { recursive: true });
    fs.writeFileSync(path.join(home, '.cursor', 'mcp.json'), '{ "mcpServers": {} }\n');
    const connect = await pkg.run(['clients', 'connect', 'cursor'], { home });
    expect(connect.code).toBe(0);
    const entry = (
      JSON.parse(fs.readFileSync(path.join(home, '.cursor', 'mcp.json'), 'utf8')) as {
        mcpServers: Record<string, { command: string; args: string[] }>;
      }
    ).mcpServers.blitz!;
    expect([entry.command, ...entry.args]).toEqual([process.execPath, path.join(pkg.packageDir, 'bin', 'blitz.cjs'), 'connect']);
  });

  it("blitz daemon start runs the package's own daemon entry; doctor sees it", async () => {
    const start = await pkg.run(['daemon', 'start'], { home });
    expect(start.stderr).toBe('');
    expect(start.stdout).toMatch(
      new RegExp(`^Started Blitz daemon \\(pid \\d+, version ${CLI_VERSION.replaceAll('.', '\\.')}\\) on http://127\\.0\\.0\\.1:\\d+\\n$`),
    );
    const state = readDaemonState(home)!;
    daemons.add(state.pid);
    if (canListProcesses) expect(commandLine(state.pid)).toEqual([process.execPath, path.join(pkg.packageDir, 'dist', 'blitzd.js')]);
    const doctor = await pkg.run(['doctor'], { home });
    expect(doctor.stdout).toContain(`ok    daemon: running (pid ${state.pid})`);
    expect(doctor.stdout).toContain('ok    settings:');
  });

  it("blitz connect answers tools/list with server-everything's tools", async () => {
    const transport = new StdioClientTransport({
      command: pkg.bin,
      args: ['connect'],
      cwd: workspace,
      env: { PATH: pkg.path, HOME: home, BLITZ_HOME: home },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'install-test', version: '1' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()).toMatchObject({ name: 'blitz', version: CLI_VERSION });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    } finally {
      await client.close();
    }
  });

  it("blitz connect lists and calls a streamable-HTTP server's tools: the bundle's lazily loaded undici sends the requests", async () => {
    const remote = await startServer();
    writeSettings(home, `${settings()}\n[[mcp.servers]]\nname = "remote"\nurl = "${remote.url}"\nprefix = "remote"\nauto_approve = true\n`);
    const transport = new StdioClientTransport({
      command: pkg.bin,
      args: ['connect'],
      cwd: workspace,
      env: { PATH: pkg.path, HOME: home, BLITZ_HOME: home },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'install-test', version: '1' });
    try {
      await client.connect(transport);
      await expect.poll(async () => (await client.listTools()).tools.map((t) => t.name), { timeout: 20_000 }).toContain('remote__echo');
      expect(await client.callTool({ name: 'remote__echo', arguments: { text: 'over http' } })).toMatchObject({
        content: [{ type: 'text', text: expect.stringContaining('over http') }],
      });
    } finally {
      await client.close();
      writeSettings(home, settings());
      await remote.close();
    }
  });

  it('search_tools ranks with the packed word-vector table: "photo" (a word no tool uses) finds get-tiny-image', async () => {
    writeSettings(home, settings('\n[hub]\ndeferred = "always"\n'));
    try {
      const hit = await firstSearchHit(
        { command: pkg.bin, args: ['connect'], cwd: workspace, env: { PATH: pkg.path, HOME: home, BLITZ_HOME: home } },
        'photo',
      );
      expect(hit).toBe('get-tiny-image');
    } finally {
      writeSettings(home, settings());
    }
  });

  it('blitz tray runs against the helper (a fake one) and shows the server', async () => {
    const helper = new FakeHelper(home);
    const tray = pkg.spawn(['tray'], { home, env: { DISPLAY: ':97' } });
    let output = '';
    tray.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    tray.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => tray.once('exit', (code) => resolve(code)));
    try {
      await waitFor(
        () => helper.idOf('☑ everything'),
        'the everything item',
        30_000,
        () => output,
      );
      expect(helper.titles()).toContain('Quit Blitz');
    } finally {
      tray.kill('SIGTERM');
      await exited;
    }
  });

  it.skipIf(process.platform !== 'linux')(
    'the real tray helper, published without its run bit, is made executable and run (it fails only for want of a display)',
    async () => {
      const helper = path.join(pkg.packageDir, 'node_modules', 'systray2', 'traybin', 'tray_linux_release');
      // A home of its own: this test's home has the fake helper, which the tray would prefer.
      const trayHome = tempDir('blitz-install-tray-');
      writeSettings(trayHome, '[daemon]\nport = 0\n');
      try {
        const tray = await pkg.run(['tray'], { home: trayHome, env: { DISPLAY: ':9797' } });
        expect(fs.statSync(helper).mode & 0o111).toBe(0o111);
        expect(tray.code).toBe(1);
        expect(tray.stderr).toContain('the tray icon could not be shown: the tray helper exited with code');
        expect(tray.stderr).not.toContain('EACCES');
      } finally {
        // The tray started a daemon for that home before its icon failed.
        const state = readDaemonState(trayHome);
        if (state) {
          daemons.add(state.pid);
          await pkg.run(['daemon', 'stop'], { home: trayHome });
        }
        fs.rmSync(trayHome, { recursive: true, force: true });
      }
    },
  );

  it('start-at-login entries name the installed blitz, not the clone', async () => {
    const xdg = path.join(home, 'xdg-config');
    const env = { XDG_CONFIG_HOME: xdg };
    const launcher = `"${process.execPath}" "${path.join(pkg.packageDir, 'bin', 'blitz.cjs')}"`;
    expect((await pkg.run(['autostart', 'enable'], { home, env })).code).toBe(0);
    const desktop = fs.readFileSync(path.join(xdg, 'autostart', 'blitz.desktop'), 'utf8');
    expect(desktop).toContain(`${launcher} tray`);
    expect(desktop).not.toContain(REPO_ROOT);
    expect((await pkg.run(['autostart', 'enable', '--daemon-only'], { home, env })).code).toBe(0);
    const unit = fs.readFileSync(path.join(xdg, 'systemd', 'user', 'blitz.service'), 'utf8');
    expect(unit).toContain(`ExecStart=${launcher} "daemon"`);
    expect(unit).not.toContain(REPO_ROOT);
    expect((await pkg.run(['autostart', 'disable'], { home, env })).code).toBe(0);
  });

  it('after an upgrade with the daemon running, blitz connect and doctor say the daemon is older; blitz daemon restart starts the new one', async () => {
    const before = readDaemonState(home)!;
    // What installing a newer tarball changes on disk, while the old daemon runs on.
    const manifestPath = path.join(pkg.packageDir, 'package.json');
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { version: string };
    fs.writeFileSync(manifestPath, JSON.stringify({ ...manifest, version: '99.0.0' }));
    expect((await pkg.run(['--version'], { home })).stdout).toBe('99.0.0\n');

    const transport = new StdioClientTransport({
      command: pkg.bin,
      args: ['connect'],
      cwd: workspace,
      env: { PATH: pkg.path, HOME: home, BLITZ_HOME: home },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'install-test', version: '1' });
    try {
      await client.connect(transport);
      await waitFor(() => stderr.includes('\n'), 'the version note');
    } finally {
      await client.close();
    }
    expect(stderr).toBe(
      `blitz connect: the running daemon is Blitz ${CLI_VERSION}, older than this blitz (99.0.0): restart it with \`blitz daemon restart\`\n`,
    );

    const doctor = await pkg.run(['doctor'], { home });
    expect(doctor.stdout).toContain(
      `warn  daemon: running (pid ${before.pid}) and answering on http://127.0.0.1:${before.port}; the running daemon is Blitz ${CLI_VERSION}, older than this blitz (99.0.0): restart it with \`blitz daemon restart\`\n`,
    );

    const restart = await pkg.run(['daemon', 'restart'], { home });
    expect(restart.code).toBe(0);
    const after = readDaemonState(home)!;
    daemons.add(after.pid);
    expect(after.pid).not.toBe(before.pid);
    expect(restart.stdout).toBe(
      `Stopped the Blitz daemon (pid ${before.pid}, version ${CLI_VERSION}).\nStarted Blitz daemon (pid ${after.pid}, version 99.0.0) on http://127.0.0.1:${after.port}\n`,
    );
  });

  it('blitz daemon stop leaves no process behind', async () => {
    const state = readDaemonState(home)!;
    expect(await pkg.run(['daemon', 'stop'], { home })).toMatchObject({
      code: 0,
      stdout: `Stopped the Blitz daemon (pid ${state.pid}). It stays stopped until blitz daemon start: clients that connect through blitz connect are told so, and not served, until then.\n`,
    });
    await assertNoOrphans({ sessions: daemons, timeoutMs: 20_000 });
    expect(readDaemonState(home)).toBeUndefined();
  });

  it('on a Node older than engines.node, blitz says which Node it needs and exits 1', async () => {
    // A `node` first on PATH that reports 18.19.0: what `#!/usr/bin/env node` then runs.
    const fakeBin = path.join(home, 'old-node');
    fs.mkdirSync(fakeBin, { recursive: true });
    const pretend = path.join(fakeBin, 'pretend-18.cjs');
    fs.writeFileSync(
      pretend,
      "Object.defineProperty(process, 'version', { value: 'v18.19.0' });\nObject.defineProperty(process.versions, 'node', { value: '18.19.0' });\n",
    );
    fs.writeFileSync(path.join(fakeBin, 'node'), `#!/bin/sh\nexec "${process.execPath}" --require "${pretend}" "$@"\n`, { mode: 0o755 });
    const result = await pkg.run(['--version'], { home, env: { PATH: `${fakeBin}${path.delimiter}${pkg.path}` } });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `blitz: Blitz needs Node.js 20.18.1 or newer, and this is Node.js 18.19.0 (${process.execPath}). Install a newer Node.js (https://nodejs.org) and run blitz again.\n`,
    });
  });
});
