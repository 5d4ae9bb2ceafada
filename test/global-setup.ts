import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The staged package's `bin/blitz.cjs` (not provided in an in-process run). */
    blitzBin: string | undefined;
  }
}

/**
 * Before a run that starts real processes: the `blitz` package staged from the built
 * workspaces (scripts/stage-package.mjs), as `npm install` would lay it out, its dependencies
 * found through a link to the clone's node_modules. Every `blitz` a test runs is that one: the
 * code users get, and a quick start (why: docs/testing.md). Its own folder per run, so that
 * two runs at once never share one; staged once per run, so a watch-mode rerun after a build
 * still runs the package staged at its start. The clone's own launcher keeps a test of its own
 * (install/clone-launcher.real.test.ts).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const stage = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-staged-')));
  const remove = () => fs.rmSync(stage, { recursive: true, force: true });
  try {
    // @ts-expect-error: a plain ES module of the repository's scripts, without types
    const { stagePackage } = (await import('../scripts/stage-package.mjs')) as {
      stagePackage(stage: string, opts: { minify: boolean }): Promise<void>;
    };
    await stagePackage(stage, { minify: false });
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
  } catch (err) {
    remove();
    throw err;
  }
  project.provide('blitzBin', path.join(stage, 'bin', 'blitz.cjs'));
  return remove;
}
