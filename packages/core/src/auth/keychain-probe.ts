import { spawn } from 'node:child_process';
import { systemClock, type Clock } from '@blitz/clock';
import { ENTRY_OPTIONS, keyringModulePath } from './keychain-store.js';
import { SECRET_SERVICE } from './stored-credentials.js';

export type KeychainProbe = { ok: true } | { ok: false; reason: string };

/** How long the probe may take before the keychain counts as not answering. */
export const PROBE_TIMEOUT_MS = 3_000;

/**
 * Asks the OS keychain for a (missing) entry in a child process, killed after `timeoutMs`:
 * the native call can block (a locked keychain waiting for a prompt), and a child can be
 * killed where a blocked thread cannot. Read-only, so probing leaves nothing behind.
 */
export async function probeKeychain(opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv; clock?: Clock } = {}): Promise<KeychainProbe> {
  const env = opts.env ?? process.env;
  // Without a session bus there is no Secret Service to ask, and no need to start a child to learn it.
  if (process.platform === 'linux' && !env.DBUS_SESSION_BUS_ADDRESS) {
    return { ok: false, reason: 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set), so no Secret Service' };
  }
  let modulePath: string;
  try {
    modulePath = keyringModulePath();
  } catch (err) {
    return { ok: false, reason: `the keychain module is not installed (${(err as Error).message})` };
  }
  const script = [
    `const { AsyncEntry } = require(${JSON.stringify(modulePath)});`,
    `new AsyncEntry(${JSON.stringify(SECRET_SERVICE)}, 'blitz-probe', ${JSON.stringify(ENTRY_OPTIONS)}).getPassword()`,
    `  .then(() => process.exit(0), (err) => { process.stderr.write(String(err && err.message || err)); process.exit(2); });`,
  ].join('\n');
  const timeoutMs = opts.timeoutMs ?? PROBE_TIMEOUT_MS;
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['-e', `try {\n${script}\n} catch (err) { process.stderr.write(String(err && err.message || err)); process.exit(2); }`],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        env,
        windowsHide: true,
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let timedOut = false;
    const timer = (opts.clock ?? systemClock).setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (err) => {
      timer.cancel();
      resolve({ ok: false, reason: err.message });
    });
    // 'close', not 'exit': the child is reaped and its pipes drained before we answer.
    child.once('close', (code) => {
      timer.cancel();
      if (timedOut)
        resolve({ ok: false, reason: `it did not answer within ${timeoutMs / 1000}s (locked, or waiting for a password prompt?)` });
      else if (code === 0) resolve({ ok: true });
      else resolve({ ok: false, reason: firstLine(stderr) || `the probe exited with code ${code}` });
    });
  });
}

function firstLine(text: string): string {
  return (
    text
      .trim()
      .split('\n')[0]
      ?.replace(/^Error:\s*/, '')
      .slice(0, 300) ?? ''
  );
}
