import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthFixture } from '../fixtures/oauth/oauth-server.mjs';
import { findOnPath } from '../../packages/core/src/connection/stdio/index.js';
import { assertNoOrphans, listProcesses } from '../../packages/core/src/testing/no-orphans.js';
import { BLITZ_BIN, tempDir } from '../support/blitz-cli.js';
import { writeSettings } from '../support/daemon-process.js';
import { completeInBrowser } from './login-process.js';

const TOOLS = ['dbus-run-session', 'gnome-keyring-daemon', 'secret-tool', 'pgrep'];
const missing = TOOLS.filter((tool) => !findOnPath(tool, process.env.PATH ?? ''));
const name = missing.length
  ? `skipped: ${missing.join(', ')} not installed (apt: gnome-keyring dbus-x11 libsecret-tools procps; scripts/install-system-packages.sh)`
  : 'login keeps the sign-in in the Secret Service (service blitz, account mcp-oauth-<name>), list and doctor say so, logout removes it';

// A private session bus and an unlocked gnome-keyring, as DEPENDENCIES.md describes, with
// HOME in a temporary folder so the user's own keyring is never touched.
// The keyring's pid is noted, and at the exit (set -e may end the script anywhere) whether it still
// runs, a zombie (not reaped by an init that does not) counting as gone: see KEYRING_CRASH.
const SCRIPT = `
set -e
eval "$(echo pw | gnome-keyring-daemon --unlock --components=secrets)"
keyring=$(pgrep -n -x gnome-keyring-d)
trap 'echo "--- keyring"; case "$(ps -o stat= -p "$keyring" 2>/dev/null)" in ""|Z*) echo gone;; *) echo "still running";; esac' EXIT
node "$BLITZ" mcp login remote --no-browser
echo "--- lookup"; secret-tool lookup service blitz username mcp-oauth-remote; echo
echo "--- list"; node "$BLITZ" mcp list
echo "--- doctor"; node "$BLITZ" doctor || true
echo "--- logout"; node "$BLITZ" mcp logout remote
echo "--- after"; secret-tool lookup service blitz username mcp-oauth-remote || echo "(nothing)"
`;

/**
 * gnome-keyring-daemon 42 can abort on its own when a client leaves right after a request
 * (GNOME/gnome-keyring issues 190, 196 and 199: gkd_secret_service_get_pkcs11_session's
 * "assertion 'client' failed", then a GLib error; seen once in CI as a SIGTRAP in dmesg).
 * D-Bus then starts a new one with the keyring locked and no one to unlock it. A run whose
 * keyring did not live to the end tested the keyring's crash, not Blitz: it runs once more,
 * from the start, with a new keyring; a second crash fails the test.
 */
const KEYRING_CRASH = /^--- keyring\ngone$/m;

let fixture: OAuthFixture;
/** Each run's Blitz home and keyring home. */
let runs: Array<{ home: string; keyringHome: string }>;

beforeEach(async () => {
  fixture = await startOAuthServer();
  runs = [];
});

afterEach(async () => {
  await fixture.close();
  await assertNoOrphans();
  // gnome-keyring-daemon detaches from us; it must still end with its bus.
  // It is not our child, so no event tells of its end: its process table entry is looked at until gone.
  await expect
    .poll(
      () =>
        listProcesses().some(
          (p) => p.command.includes('gnome-keyring-daemon') && runs.some((r) => environOf(p.pid).includes(`HOME=${r.keyringHome}`)),
        ),
      { timeout: 15_000 },
    )
    .toBe(false);
  for (const { home, keyringHome } of runs) {
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(keyringHome, { recursive: true, force: true });
  }
});

/** One run of SCRIPT in a private bus with a keyring of its own: what it printed, and its Blitz home. */
async function runScript(): Promise<{ output: string; home: string }> {
  const run = { home: tempDir('blitz-keychain-'), keyringHome: tempDir('blitz-keyring-home-') };
  runs.push(run);
  writeSettings(run.home, `[[mcp.servers]]\nname = "remote"\nurl = "${fixture.url}"\n`);
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', SCRIPT], {
    env: { PATH: process.env.PATH, HOME: run.keyringHome, BLITZ_HOME: run.home, BLITZ: BLITZ_BIN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Read apart: dbus-daemon's own warnings on stderr may land in the middle of a stdout line.
  let output = '';
  let errors = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (errors += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  try {
    // Looked for as stderr arrives; the login exiting without printing one fails the test.
    const printed = new Promise<string>((resolve) => {
      const look = (): void => {
        const found = /^\s+(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(errors)?.[1];
        if (found === undefined) return;
        child.stderr.off('data', look);
        resolve(found);
      };
      child.stderr.on('data', look);
    });
    const url = await Promise.race([
      printed,
      exited.then((code) => Promise.reject(new Error(`exited ${code} with no authorization URL in:\n${errors}`))),
    ]);
    expect((await completeInBrowser(url)).status).toBe(200);
    const code = await exited;
    // A crashed keyring fails the script anywhere (set -e): its run is told apart by its last section.
    if (!KEYRING_CRASH.test(output)) expect(code, `${output}\n${errors}`).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill();
  }
  return { output, home: run.home };
}

describe('the OS keychain', () => {
  it.skipIf(missing.length > 0)(name, async () => {
    let { output, home } = await runScript();
    if (KEYRING_CRASH.test(output)) {
      console.warn(`gnome-keyring-daemon ended mid-run (see KEYRING_CRASH); running once more:\n${output}`);
      ({ output, home } = await runScript());
      expect(output, 'gnome-keyring-daemon ended mid-run twice').not.toMatch(KEYRING_CRASH);
    }
    const section = (title: string) => output.split(`--- ${title}\n`)[1]!.split('\n--- ')[0]!;
    expect(output).toContain('Signed in to MCP server remote. The sign-in is kept in the OS keychain (service "blitz").');
    expect(JSON.parse(section('lookup').trim())).toMatchObject({
      version: 1,
      server: 'remote',
      serverUrl: fixture.url,
      tokens: { token_type: 'Bearer' },
    });
    expect(section('list')).toMatch(/^remote\s+http\s+\S+\s+enabled, signed in$/m);
    expect(section('list')).not.toContain('sign-ins are kept in');
    expect(section('doctor')).toMatch(/^ok {4}keychain: the OS keychain answers; sign-ins are kept there \(service "blitz"\)$/m);
    expect(section('logout')).toContain('Signed out of MCP server remote: its tokens are forgotten.');
    expect(section('after').trim()).toBe('(nothing)');
    expect(fs.existsSync(path.join(home, 'state', 'secrets.json'))).toBe(false);
  });
});

function environOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return '';
  }
}
