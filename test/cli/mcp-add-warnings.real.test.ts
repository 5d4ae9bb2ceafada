/**
 * Issue 26.5: `blitz mcp add` says what `blitz doctor` would — a command not on PATH, no
 * sandbox on this machine (with this OS's fix) — and saves the entry anyway; the control API's
 * save answer carries the same warnings, and a daemon without bubblewrap says so once, as a notice.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installCommand } from '../../packages/core/src/connection/stdio/install-command.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';

let home: string;
/** A PATH with nothing on it: no bwrap, no mcp-server-does-not-exist. */
let emptyBin: string;
let daemon: RunningDaemon | undefined;

beforeEach(() => {
  home = tempDir('blitz-addwarn-');
  emptyBin = path.join(home, 'empty-bin');
  fs.mkdirSync(emptyBin);
});

afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
});

const settings = () => fs.readFileSync(path.join(home, 'settings.toml'), 'utf8');
const NO_SANDBOX = `sandbox unavailable: bwrap is not on PATH (${installCommand('bubblewrap')})`;

describe('blitz mcp add warns, and saves (issue 26.5)', () => {
  it('a command not on PATH: the warning doctor gives, on stderr; the entry is saved, exit 0', async () => {
    const added = await runBlitz(['mcp', 'add', '--no-sandbox', 'broken', 'mcp-server-does-not-exist'], { home });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('Added MCP server "broken"');
    expect(added.stderr).toBe(
      'warning: mcp-server-does-not-exist is not on PATH; install it, or give its full path. It was saved anyway; blitz doctor checks again.\n',
    );
    expect(settings()).toContain('name = "broken"');
    expect((await runBlitz(['doctor'], { home })).stdout).toContain(
      'mcp-server-does-not-exist is not on PATH; install it, or give its full path',
    );
    // A command that is there: nothing to say.
    const fine = await runBlitz(['mcp', 'add', '--no-sandbox', 'fine', process.execPath, 'x.js'], { home });
    expect(fine.stderr).toBe('');
  });

  it.skipIf(process.platform !== 'linux')("no bubblewrap: the sandbox warning with this OS's fix; saved", async () => {
    const added = await runBlitz(['mcp', 'add', 'boxed', process.execPath, 'x.js'], { home, env: { PATH: emptyBin } });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toBe(
      `warning: ${NO_SANDBOX}; or set sandbox = false for boxed. It was saved anyway; blitz doctor checks again.\n`,
    );
    expect(settings()).toContain('name = "boxed"');
  });

  it.skipIf(process.platform !== 'linux')(
    "the control API's save answer carries them, and a daemon without bubblewrap says so once as a notice",
    async () => {
      writeSettings(
        home,
        `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "boxed"\ncommand = ${JSON.stringify(process.execPath)}\nargs = ["x.js"]\n`,
      );
      daemon = await startDaemonProcess(home, { PATH: emptyBin });
      const told = (await daemon.client.status()).notices.filter((n) => n.kind === 'sandbox');
      expect(told.map((n) => n.message)).toEqual([
        `${NO_SANDBOX}; or set sandbox = false for boxed (every server with sandbox = true fails to start until then)`,
      ]);

      const saved = await daemon.client.saveServer({ name: 'broken', command: 'mcp-server-does-not-exist' });
      expect(saved).toMatchObject({ server: 'broken', change: 'added' });
      expect(saved.warnings).toEqual([
        'mcp-server-does-not-exist is not on PATH; install it, or give its full path',
        `${NO_SANDBOX}; or set sandbox = false for broken`,
      ]);
      expect(settings()).toContain('name = "broken"');
      const plain = await daemon.client.saveServer({ name: 'plain', command: process.execPath, sandbox: false });
      expect(plain.warnings).toBeUndefined();
      // Told once, not at every settings change.
      expect((await daemon.client.status()).notices.filter((n) => n.kind === 'sandbox')).toHaveLength(1);
    },
  );
});
