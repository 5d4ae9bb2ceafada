import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The real files that take 30 s and more (measured 2026-12-04, three at a time on 2 cores),
 * longest first. Vitest starts the files it has no timings for (every file, on a fresh clone as
 * CI runs) largest first; client-auth is a small file of 100 s, so it started last and the run
 * waited 100 s for it alone. Listed here, they start first, whatever vitest's cache holds.
 */
export const START_FIRST = [
  'conformance/client-auth.real.test.ts',
  'hub/hub.real.test.ts',
  'hub/routing.real.test.ts',
  'security/concurrent-edits.real.test.ts',
  'settings/settings-page.real.test.ts',
  'tray/tray-truth.real.test.ts',
];

const HERE = path.dirname(new URL(import.meta.url).pathname);

/** Vitest's own order, with START_FIRST's files moved to the front in their listed order. */
export class StartFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const gone = START_FIRST.filter((file) => !fs.existsSync(path.join(HERE, file)));
    if (gone.length > 0) throw new Error(`test/start-first-sequencer.ts lists files that are not there: ${gone.join(', ')}`);
    const rank = (spec: TestSpecification) => {
      const at = START_FIRST.indexOf(path.relative(HERE, spec.moduleId));
      return at < 0 ? START_FIRST.length : at;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
