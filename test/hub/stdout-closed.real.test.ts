import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { REAL_WAIT } from '../../packages/core/src/testing/real-wait.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';

// Issue 25.7: a server that closes its stdout mid-call and keeps running is a disconnect: the
// call ends at once with a clear error (not at timeout_seconds), and the process is stopped.
let home: string;
let workspace: string;
let daemon: RunningDaemon;
let pidFile: string;

/** Whether a process whose command line holds `marker` runs: the server's own pid is its pid namespace's, not ours. */
function running(marker: string): boolean {
  return fs.readdirSync('/proc').some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      return fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(marker);
    } catch {
      return false;
    }
  });
}

beforeAll(async () => {
  home = tempDir('blitz-stdout-closed-');
  workspace = tempDir('blitz-stdout-closed-ws-');
  pidFile = path.join(home, 'server.pid');
  // The home folder as an argument of its own marks this test's server process.
  const { command, args } = fixtureCommand('close-stdout', [home]);
  writeSettings(
    home,
    `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "mute"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\nauto_approve = true\ntimeout_seconds = 3600\nenv = { CLOSE_STDOUT_PID_FILE = ${JSON.stringify(pidFile)} }\n`,
  );
  daemon = await startDaemonProcess(home);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await assertNoOrphans();
  for (const dir of [home, workspace]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a server that closes its stdout and keeps running (issue 25.7)', () => {
  it('ends the call at once with the reason, stops the process, and the server shows the reason', async () => {
    const client = await connectHub(daemon.state, { workspace });
    try {
      expect(fs.existsSync(pidFile)).toBe(true);
      expect(running(home)).toBe(true);
      // timeout_seconds = 3600 and a request timeout past the test's: only the hub can end it.
      const result = await client
        .callTool({ name: 'close_stdout', arguments: {} }, undefined, { timeout: 3_600_000 })
        .catch((err: unknown) => ({ isError: true, content: [{ type: 'text', text: (err as Error).message }] }));
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('MCP server mute closed its stdout but kept running, so it can answer nothing more; it was stopped');
      await expect.poll(() => running(home), REAL_WAIT).toBe(false);
      const [ws] = await daemon.client.listWorkspaces();
      const servers = await daemon.client.listWorkspaceServers(ws!.id);
      // As after a crash: the breaker's step (failed, or paused until its trial), with the reason.
      const mute = servers.find((s) => s.name === 'mute');
      expect(['failed', 'paused']).toContain(mute?.state);
      expect(mute?.error).toContain('closed its stdout');
    } finally {
      await client.close();
    }
  }, 120_000);
});
