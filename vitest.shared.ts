import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * One test setup for every workspace. Each run also writes a JSON report under
 * `.test-results/`, which `scripts/test-summary.mjs` adds up into the closing line CI reads.
 */
export function sharedTestConfig(workspace: string) {
  const report = path.join(root, '.test-results', `${workspace.replace(/[@/]/g, '_')}.json`);
  return {
    include: ['src/**/*.test.ts', '*.test.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: report },
    pool: 'forks' as const,
    passWithNoTests: true,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default, less than a child process's start can take on a
    // loaded 2-core machine; a poll still ends at its condition, never later than it must.
    expect: { poll: { timeout: 20_000, interval: 50 } },
  };
}
