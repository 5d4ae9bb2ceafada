import fs from 'node:fs';
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
    writeSettings(home, server('good', 'env-dump') + '[[mcp.servers]]\nname = "missing"\ncommand = "no-such-command-xyz"\nsandbox = false\n');
    const result = await runBlitz(['doctor'], { home });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('ok    settings: ');
    expect(result.stdout).toContain(`ok    command of good: ${process.execPath}`);
    expect(result.stdout).toMatch(/FAIL  command of missing: no-such-command-xyz is not on PATH; install it, or give its full path\n/);
    expect(result.stdout).toContain('FAIL  daemon: not running; start it: blitz daemon start');
  });

  it('invalid settings fail it, with every problem', async () => {
    writeSettings(home, '[[mcp.servers]]\nname = "a"\n');
    const result = await runBlitz(['doctor'], { home });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL  settings: .*settings\.toml:\n {4}.*server "a": needs a command/);
  });

  it('--online connects to every enabled server and counts its tools, failures with their phase', async () => {
    writeSettings(home, server('ok', 'changing-tools') + server('dead', 'exit-at-start') + server('stuck', 'hang-initialize').replace('sandbox = false', 'sandbox = false\nstartup_timeout_seconds = 1'));
    const result = await runBlitz(['doctor', '--online'], { home });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('ok    ok: 2 tools');
    expect(result.stdout).toMatch(/FAIL {2}dead: MCP server dead exited with code 1/);
    expect(result.stdout).toContain('FAIL  stuck: MCP server stuck did not answer initialize within 1s');
    expect(result.stderr).toContain('Connecting to 3 MCP servers…');
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
});
