import { spawn, type ChildProcess } from 'node:child_process';
import { BLITZ_BIN } from '../support/blitz-cli.js';

export interface LoginProcess {
  child: ChildProcess;
  /** The authorization URL, once the CLI has printed it. */
  authorizationUrl(): Promise<string>;
  /** Resolves when the output so far matches. */
  waitFor(pattern: RegExp): Promise<string>;
  /** Types a line as if pasted in the terminal. */
  paste(line: string): void;
  output(): string;
  exit(): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** `blitz mcp login NAME --no-browser` as a real subprocess whose output the test reads as it comes. */
export function startLogin(home: string, name: string, opts: { env?: NodeJS.ProcessEnv; args?: string[] } = {}): LoginProcess {
  const child = spawn(process.execPath, [BLITZ_BIN, 'mcp', 'login', name, '--no-browser', ...(opts.args ?? [])], {
    cwd: home,
    env: { PATH: process.env.PATH, HOME: home, ...opts.env, BLITZ_HOME: home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  const changed = () => waiters.forEach((w) => w());
  child.stdout!.on('data', (d: Buffer) => ((stdout += d.toString()), changed()));
  child.stderr!.on('data', (d: Buffer) => ((stderr += d.toString()), changed()));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => {
      changed();
      resolve({ code, stdout, stderr });
    }),
  );
  const waitFor = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stdout + stderr);
        if (match) {
          waiters.delete(check);
          resolve(match[1] ?? match[0]);
        } else if (child.exitCode !== null) {
          waiters.delete(check);
          reject(new Error(`login exited (${child.exitCode}) before printing ${pattern}:\n${stdout}${stderr}`));
        }
      };
      waiters.add(check);
      check();
    });
  return {
    child,
    authorizationUrl: () => waitFor(/^\s+(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m),
    waitFor,
    paste: (line) => child.stdin!.write(`${line}\n`),
    output: () => stdout + stderr,
    exit: () => exited,
  };
}

/**
 * Plays the browser: opens the authorization URL (the fixture approves at once) and
 * returns where it redirects, without following it.
 */
export async function authorize(authorizationUrl: string): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (response.status !== 302 || !location) throw new Error(`authorize answered ${response.status}: ${await response.text()}`);
  return new URL(location);
}

/** The whole browser trip: authorize, then land on the CLI's callback listener. */
export async function completeInBrowser(authorizationUrl: string): Promise<{ status: number; body: string }> {
  const callback = await authorize(authorizationUrl);
  const response = await fetch(callback);
  return { status: response.status, body: await response.text() };
}
