import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** How to run this very Blitz from a place that has neither this shell's PATH nor its folder. */
export interface BlitzCommand {
  /** Absolute path of the Node binary running Blitz now. */
  node: string;
  /** Real path (symlinks resolved) of the launcher npm links as `blitz`: the package's `bin`. */
  bin: string;
}

interface PackageJson {
  bin?: string | Record<string, string>;
}

let resolved: BlitzCommand | undefined;

/**
 * The path of this `blitz`, resolved once: the `bin` that the package.json beside the code
 * names — `apps/cli/bin/blitz.js` in a clone, `bin/blitz.cjs` in the installed package (the
 * bundle sits in `dist/` next to it in both, see scripts/stage-package.mjs). Whatever runs Blitz
 * later (start-at-login entries, client configs written by `blitz clients`) uses this, so it
 * names the installed package, never the clone it was built in.
 */
export function blitzCommand(): BlitzCommand {
  if (resolved) return resolved;
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('../package.json');
  const { bin } = require(manifest) as PackageJson;
  const relative = typeof bin === 'string' ? bin : bin?.blitz;
  if (!relative) throw new Error(`${manifest} names no \`blitz\` bin`);
  resolved = { node: process.execPath, bin: fs.realpathSync(path.resolve(path.dirname(manifest), relative)) };
  return resolved;
}

/** The argv that runs `blitz ARGS…` exactly as this one: this Node and this launcher. */
export function blitzArgv(...args: string[]): string[] {
  const { node, bin } = blitzCommand();
  return [node, bin, ...args];
}
