/**
 * Keeps `npm test` in-process: a test in a file not named `*.real.test.ts` fails if it starts a
 * child process (a server, a daemon, a browser, a CLI, even `spawnSync('which')`). Such a test
 * belongs in a `*.real.test.ts` file, which `npm run test:real` runs. Every `node:child_process`
 * entry point is wrapped once per worker; the ESM named exports follow the wrapped functions.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { afterEach, expect } from 'vitest';

const ENTRY_POINTS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
const GUARD = Symbol.for('blitz.in-process-guard');

export function isRealTestFile(file: string): boolean {
  return file.endsWith('.real.test.ts');
}

function currentTestFile(): string | undefined {
  try {
    return expect.getState().testPath;
  } catch {
    return undefined; // Outside a test file's run (vitest's own startup).
  }
}

// Once per worker: without isolation this file runs again before each test file.
const cp = childProcess as unknown as Record<string, unknown> & { [GUARD]?: { started: string[] } };
const guard = (cp[GUARD] ??= wrapEntryPoints());

function wrapEntryPoints(): { started: string[] } {
  const started: string[] = [];
  for (const name of ENTRY_POINTS) {
    const original = cp[name] as (...args: unknown[]) => unknown;
    cp[name] = function guarded(this: unknown, ...args: unknown[]) {
      const file = currentTestFile();
      if (file !== undefined && !isRealTestFile(file)) {
        started.push(`${name}(${JSON.stringify(String(args[0]))}) in ${path.basename(file)}`);
        throw new Error(
          `an in-process test started a child process (${name} ${String(args[0])}): rename ${path.basename(file)} to *.real.test.ts`,
        );
      }
      return original.apply(this, args);
    };
  }
  syncBuiltinESMExports();
  return { started };
}

// The throw above may be caught by the code under test (a spawn error is an expected outcome for
// some); the test fails here all the same.
afterEach(() => {
  const seen = guard.started.splice(0);
  if (seen.length > 0) throw new Error(`an in-process test started a child process: ${seen.join('; ')}; name its file *.real.test.ts`);
});
