import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/blitz-cli.js';

// The launcher's own check (plain CommonJS, so that an old Node can run it).
const { nodeVersionProblem } = createRequire(import.meta.url)(path.join(REPO_ROOT, 'apps', 'cli', 'bin', 'node-version.cjs')) as {
  nodeVersionProblem(current: string, range: string, execPath?: string): string | undefined;
};

describe('nodeVersionProblem', () => {
  it.each(['20.18.1', '20.19.0', '21.0.0', '22.12.0', 'v24.1.0'])('accepts Node %s for >=20.18.1', (version) => {
    expect(nodeVersionProblem(version, '>=20.18.1')).toBeUndefined();
  });

  it.each(['20.18.0', '20.9.0', '18.19.0', '16.0.0', '0.10.48'])('refuses Node %s for >=20.18.1, naming both versions', (version) => {
    expect(nodeVersionProblem(version, '>=20.18.1', '/opt/node/bin/node')).toBe(
      `Blitz needs Node.js 20.18.1 or newer, and this is Node.js ${version} (/opt/node/bin/node). Install a newer Node.js (https://nodejs.org) and run blitz again.`,
    );
  });

  it('reads a shorter range', () => {
    expect(nodeVersionProblem('20.0.0', '>=20')).toBeUndefined();
    expect(nodeVersionProblem('19.9.9', '>= 20')).toContain('needs Node.js 20.0.0 or newer');
  });

  it('refuses a range it cannot read rather than guess', () => {
    expect(() => nodeVersionProblem('20.0.0', '^20 || ^22')).toThrow('engines.node must read ">=X.Y.Z"');
  });
});
