/** Test support: the fixture MCP servers in `test/fixtures/` (plain .mjs files run by node). */
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = fileURLToPath(new URL('../../../../test/fixtures/', import.meta.url));

export type FixtureName =
  | 'hang-initialize'
  | 'hang-call'
  | 'crash-after'
  | 'exit-at-start'
  | 'garbage-stdout'
  | 'flood-stderr'
  | 'ignore-sigterm'
  | 'spawn-grandchild'
  | 'changing-tools'
  | 'no-tools'
  | 'write-file'
  | 'env-dump'
  | 'leak-secrets'
  | 'resources'
  | 'conformance'
  | 'progress-burst'
  | 'gated-initialize'
  | 'gated-tools'
  | 'protocol'
  | 'ask-together'
  | 'rug-pull'
  | 'close-stdout'
  | 'modern'
  | 'stderr-echo'
  | 'strict-initialize'
  | 'legacy-twin'
  | 'modern-tasks';

export function fixturePath(name: FixtureName): string {
  return `${FIXTURES_DIR}${name}.mjs`;
}

/** The command line that runs a fixture with this Node. */
export function fixtureCommand(name: FixtureName, args: string[] = []): { command: string; args: string[] } {
  return { command: process.execPath, args: [fixturePath(name), ...args] };
}
