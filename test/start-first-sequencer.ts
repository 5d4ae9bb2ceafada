import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The real files that take 30 s and more (measured 2026-12-04, three at a time on 2 cores),
 * longest first, relative to test/. Vitest starts the files it has no timings for (every file,
 * on a fresh clone as CI runs) largest first; client-auth is a small file of 100 s, so it
 * started last and the run waited 100 s for it alone. Listed here, they start first, whatever
 * vitest's cache holds.
 */
export const START_FIRST = [
  'conformance/client-auth.real.test.ts',
  'hub/hub.real.test.ts',
  'hub/routing.real.test.ts',
  'security/concurrent-edits.real.test.ts',
  'settings/settings-page.real.test.ts',
  'tray/tray-truth.real.test.ts',
];

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** `files` (module paths) in their order, but those that end in one of `first` (paths with `/`) moved to the front, in `first`'s order. */
export function startFirst<T>(files: readonly T[], first: readonly string[], moduleId: (file: T) => string): T[] {
  const rank = (file: T) => {
    const id = moduleId(file).replaceAll('\\', '/');
    const at = first.findIndex((suffix) => id.endsWith(`/${suffix}`));
    return at < 0 ? first.length : at;
  };
  // Array.prototype.sort is stable: the rest keep their order.
  return [...files].sort((a, b) => rank(a) - rank(b));
}

/** Vitest's own order, with START_FIRST's files moved to the front. */
export class StartFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const gone = START_FIRST.filter((file) => !fs.existsSync(path.join(HERE, file)));
    if (gone.length > 0) throw new Error(`test/start-first-sequencer.ts lists files that are not there: ${gone.join(', ')}`);
    return startFirst(await super.sort(files), START_FIRST, (spec) => spec.moduleId);
  }
}
