import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * Which tests a run takes, by vitest's `--mode`:
 * - `in-process` (`npm test`): every `*.test.ts` but the real ones; in-memory transports, pure
 *   functions, an injected clock. A guard fails such a test if it starts a child process.
 * - `real` (`npm run test:real`): the `*.real.test.ts` files, which start real servers, daemons,
 *   browsers and clients.
 * - anything else (`npx vitest run some/file.test.ts`, vitest's default mode `test`): both.
 */
export type TestMode = 'in-process' | 'real' | string;

/**
 * One test setup for every workspace. Each run also writes a JSON report under
 * `.test-results/` (one per workspace and mode), which `scripts/test-summary.mjs` adds up into
 * the closing line CI reads.
 */
export function sharedTestConfig(workspace: string, mode: TestMode, include = ['src/**/*.test.ts', '*.test.ts']) {
  const set = mode === 'in-process' || mode === 'real' ? mode : 'all';
  const report = path.join(root, '.test-results', `${workspace.replace(/[@/]/g, '_')}${set === 'all' ? '' : `.${set}`}.json`);
  return {
    include: set === 'real' ? include.map((glob) => glob.replace(/\.test\.ts$/, '.real.test.ts')) : include,
    exclude: ['**/node_modules/**', '**/dist/**', ...(set === 'in-process' ? ['**/*.real.test.ts'] : [])],
    setupFiles: [path.join(root, 'vitest.in-process-guard.ts')],
    reporters: ['default', 'json'],
    outputFile: { json: report },
    pool: 'forks' as const,
    // In-process files share their workers (no fresh module graph per file: most of a small
    // file's time was its imports) and run two at a time; a real file gets a process of its own,
    // three at a time: they mostly wait on the processes they start (one at a time on 2 cores,
    // vitest's default there, the real suite took 24 min; three at a time, 15).
    ...(set === 'in-process' ? { isolate: false, maxWorkers: 2 } : { maxWorkers: 3 }),
    passWithNoTests: true,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default, less than a child process's start can take on a
    // loaded 2-core machine; a poll still ends at its condition, never later than it must.
    expect: { poll: { timeout: 20_000, interval: 50 } },
  };
}
