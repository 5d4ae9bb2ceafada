import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings } from '../support/daemon-process.js';

let home: string;
beforeEach(() => {
  home = tempDir('blitz-doctor-');
});
afterEach(async () => {
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
});

function server(name: string, fixture: Parameters<typeof fixtureCommand>[0]): string {
  const { command, args } = fixtureCommand(fixture);
  return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\n\n`;
}

describe('blitz doctor', () => {
  it('checks settings and commands; a command not on PATH fails it', async () => {
    writeSettings(
      home,
      server('good', 'env-dump') + '[[mcp.servers]]\nname = "missing"\ncommand = "no-such-command-xyz"\nsandbox = false\n',
    );
    const result = await runBlitz(['doctor'], { home });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('ok    settings: ');
    expect(result.stdout).toContain(`ok    command of good: ${process.execPath}`);
    expect(result.stdout).toMatch(/FAIL  command of missing: no-such-command-xyz is not on PATH; install it, or give its full path\n/);
    expect(result.stdout).toContain('FAIL  daemon: not running; start it: blitz daemon start');
    // sandbox = false: how the servers' helpers are kept from outliving them here.
    expect(result.stdout).toMatch(
      process.platform === 'linux'
        ? /ok    processes: each stdio server runs in a pid namespace of its own \((bubblewrap|unshare)\)|warn  processes: no pid namespace here/
        : /processes: /,
    );
  });

  it("warns of a server whose ${VAR} is not set in this shell's environment, not of a disabled one", async () => {
    const env = (name: string, extra = '') =>
      server(name, 'env-dump').replace('sandbox = false', `sandbox = false\nenv = { TOKEN = "\${BLITZ_DOCTOR_UNSET}" }${extra}`);
    writeSettings(home, env('gh') + env('off', '\ndisabled = true'));
    const result = await runBlitz(['doctor'], { home });
    expect(result.stdout).toContain(
      "warn  environment of gh: environment variable ${BLITZ_DOCTOR_UNSET} is not set in this shell's environment: a daemon started from here cannot start the server (set what it needs, then blitz daemon restart)\n",
    );
    expect(result.stdout).not.toContain('environment of off');
  });

  it('invalid settings fail it, with every problem', async () => {
    writeSettings(home, '[[mcp.servers]]\nname = "a"\n');
    const result = await runBlitz(['doctor'], { home });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL  settings: .*settings\.toml:\n {4}.*server "a": needs a command/);
  });

  it('--online connects to every enabled server and counts its tools, failures with their phase', async () => {
    writeSettings(
      home,
      server('ok', 'changing-tools') +
        server('empty', 'no-tools') +
        server('dead', 'exit-at-start') +
        server('stuck', 'hang-initialize').replace('sandbox = false', 'sandbox = false\nstartup_timeout_seconds = 1'),
    );
    const result = await runBlitz(['doctor', '--online'], { home });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('ok    ok: 2 tools\n');
    // A server that lists no tools though it offers them answered: a warning, no failure.
    expect(result.stdout).toContain(
      'ok    empty: 0 tools\nwarn  empty: lists no tools, though it offers the tools capability (tools/list answered an empty list)\n',
    );
    expect(result.stdout).not.toContain('warn  ok:');
    expect(result.stdout).toContain(
      'FAIL  dead: it exited with code 1: exit-at-start: FAKE_API_KEY is not set; see its output: blitz mcp get dead\n      exit-at-start: FAKE_API_KEY is not set\n',
    );
    expect(result.stdout).toContain(
      'FAIL  stuck: it did not answer initialize within 1s; check that it is an MCP server; if it is slow to start, raise startup_timeout_seconds\n',
    );
    expect(result.stderr).toContain('Connecting to 4 MCP servers…');
  });

  it("--online warns of a tool_exposure key or tools entry that names none of the server's tools, by file, line, server and field, and still passes", async () => {
    writeSettings(
      home,
      '[daemon]\nport = 0\n\n' +
        server('ok', 'env-dump').replace(
          'sandbox = false',
          'sandbox = false\ntools = ["env", "gone"]\ntool_exposure = { "env" = "deferred", "pr_*" = "hidden" }',
        ),
    );
    const daemon = await startDaemonProcess(home);
    try {
      const result = await runBlitz(['doctor', '--online'], { home });
      const file = path.join(home, 'settings.toml');
      expect(result.stdout).toContain(
        [
          'ok    ok: 2 tools',
          `warn  ok: ${file}:9: warning: server "ok", field "tools": lists "gone", which the server does not offer`,
          `warn  ok: ${file}:10: warning: server "ok", field "tool_exposure.pr_*": matches no tool the server offers`,
        ].join('\n'),
      );
      expect(result.code).toBe(0);
    } finally {
      await daemon.stop();
    }
  });

  it('passes when all is well, the daemon answering', async () => {
    writeSettings(home, '[daemon]\nport = 0\n\n' + server('ok', 'env-dump'));
    const daemon = await startDaemonProcess(home);
    try {
      const result = await runBlitz(['doctor', '--online'], { home });
      expect(result.stdout).toMatch(/ok {4}daemon: running \(pid \d+\) and answering/);
      expect(result.stdout).toContain('ok    ok: 2 tools');
      expect(result.code).toBe(0);
    } finally {
      await daemon.stop();
    }
  });

  it("checks commands on the running daemon's PATH: one installed since it started is named, with the fix", async () => {
    const bin = tempDir('blitz-doctor-bin-');
    fs.writeFileSync(path.join(bin, 'fresh-tool'), '#!/bin/sh\n', { mode: 0o755 });
    writeSettings(home, '[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "fresh"\ncommand = "fresh-tool"\nsandbox = false\n');
    const daemon = await startDaemonProcess(home);
    try {
      const shellPath = `${bin}${path.delimiter}${process.env.PATH}`;
      const result = await runBlitz(['doctor'], { home, env: { PATH: shellPath } });
      expect(result.stdout).toContain(
        `FAIL  command of fresh: fresh-tool is on your PATH (${path.join(bin, 'fresh-tool')}) but not on the running daemon's, which was fixed when it started; restart it (blitz daemon stop && blitz daemon start), or give the full path`,
      );
      expect(result.code).toBe(1);
      // Without a daemon, this shell's PATH is where it would look.
      await daemon.stop();
      expect((await runBlitz(['doctor'], { home, env: { PATH: shellPath } })).stdout).toContain(
        `ok    command of fresh: ${path.join(bin, 'fresh-tool')}`,
      );
    } finally {
      await daemon.stop();
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});
