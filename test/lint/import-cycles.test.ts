import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterEach, describe, expect, it } from 'vitest';

// Issue 27 point 4: the repository's own lint config fails on an import cycle, between files or
// between folders, in a package and in an app alike. The probes are real files in a tree laid
// out like the repository, linted by ESLint with eslint.config.js.
const CONFIG = fileURLToPath(new URL('../../eslint.config.js', import.meta.url));

let root: string | undefined;
afterEach(() => {
  if (root !== undefined) fs.rmSync(root, { recursive: true, force: true });
  root = undefined;
});

async function lint(files: Record<string, string>): Promise<Map<string, string[]>> {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-cycles-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  const eslint = new ESLint({ cwd: root, overrideConfigFile: CONFIG });
  const results = await eslint.lintFiles(Object.keys(files).filter((f) => f.endsWith('.ts')));
  const found = new Map<string, string[]>();
  for (const r of results) {
    const cycles = r.messages.filter((m) => m.ruleId?.startsWith('blitz/')).map((m) => `${m.ruleId} ${m.line}: ${m.message}`);
    if (cycles.length > 0) found.set(path.relative(root, r.filePath), cycles);
  }
  return found;
}

const PACKAGE = { 'packages/probe/package.json': '{ "name": "probe" }' };
const DAEMON = { 'apps/daemon/package.json': '{ "name": "@blitz/daemon" }' };

describe('no-import-cycle', () => {
  it('fails both files of a cycle closed by a type-only import', async () => {
    const found = await lint({
      ...PACKAGE,
      'packages/probe/src/manager.ts':
        "import { route } from './routing.js';\nexport interface Options { a: number }\nexport const m = route;\n",
      'packages/probe/src/routing.ts':
        "import type { Options } from './manager.js';\nexport function route(o: Options): number { return o.a; }\n",
    });
    expect(found).toEqual(
      new Map([
        [
          'packages/probe/src/manager.ts',
          [
            'blitz/no-import-cycle 1: Import cycle: src/manager.ts → src/routing.ts → src/manager.ts. Move what both sides need into a file that imports neither.',
          ],
        ],
        [
          'packages/probe/src/routing.ts',
          [
            'blitz/no-import-cycle 1: Import cycle: src/routing.ts → src/manager.ts → src/routing.ts. Move what both sides need into a file that imports neither.',
          ],
        ],
      ]),
    );
  });

  it('names every file of a longer cycle, re-exports and import() included', async () => {
    const found = await lint({
      ...DAEMON,
      'apps/daemon/src/hub/session-context.ts': "export type { Deferred } from './deferred-tools.js';\n",
      'apps/daemon/src/hub/deferred-tools.ts': "import { TOOLS } from './resource-tools.js';\nexport type Deferred = typeof TOOLS;\n",
      'apps/daemon/src/hub/resource-tools.ts': "export const TOOLS = [];\nexport const later = () => import('./session-context.js');\n",
    });
    expect(found.get('apps/daemon/src/hub/resource-tools.ts')).toEqual([
      'blitz/no-import-cycle 2: Import cycle: src/hub/resource-tools.ts → src/hub/session-context.ts → src/hub/deferred-tools.ts → src/hub/resource-tools.ts. Move what both sides need into a file that imports neither.',
    ]);
    expect([...found.keys()].sort()).toEqual([
      'apps/daemon/src/hub/deferred-tools.ts',
      'apps/daemon/src/hub/resource-tools.ts',
      'apps/daemon/src/hub/session-context.ts',
    ]);
  });
});

describe('no-folder-cycle', () => {
  it('fails sibling folders that import each other, though no file cycle closes', async () => {
    const found = await lint({
      ...DAEMON,
      'apps/daemon/src/http/daemon-server.ts': "import { endpoint } from '../hub/hub-endpoint.js';\nexport const server = endpoint;\n",
      'apps/daemon/src/http/error-answer.ts': 'export const answer = 1;\n',
      'apps/daemon/src/hub/hub-endpoint.ts': 'export const endpoint = 1;\n',
      'apps/daemon/src/hub/rpc-error.ts': "import { answer } from '../http/error-answer.js';\nexport const rpc = answer;\n",
    });
    expect(found).toEqual(
      new Map([
        [
          'apps/daemon/src/http/daemon-server.ts',
          [
            'blitz/no-folder-cycle 1: Folder cycle: src/http/ → src/hub/ → src/http/ (src/hub/rpc-error.ts imports src/http/error-answer.ts). Move what both need into a folder neither imports from, or join them.',
          ],
        ],
        [
          'apps/daemon/src/hub/rpc-error.ts',
          [
            'blitz/no-folder-cycle 1: Folder cycle: src/hub/ → src/http/ → src/hub/ (src/http/daemon-server.ts imports src/hub/hub-endpoint.ts). Move what both need into a folder neither imports from, or join them.',
          ],
        ],
      ]),
    );
  });

  it('fails a cycle through three folders, nested ones counted as the sibling that holds them', async () => {
    const found = await lint({
      ...PACKAGE,
      'packages/probe/src/config/load.ts': "import { read } from '../files/read.js';\nexport const load = read;\n",
      'packages/probe/src/files/read.ts': "import { mask } from '../redact/deep/mask.js';\nexport const read = mask;\n",
      'packages/probe/src/redact/deep/mask.ts': "import { ENV } from '../../config/env/expand.js';\nexport const mask = ENV;\n",
      'packages/probe/src/config/env/expand.ts': 'export const ENV = 1;\n',
    });
    expect(found.get('packages/probe/src/files/read.ts')).toEqual([
      'blitz/no-folder-cycle 1: Folder cycle: src/files/ → src/redact/ → src/config/ → src/files/ (src/redact/deep/mask.ts imports src/config/env/expand.ts; src/config/load.ts imports src/files/read.ts). Move what both need into a folder neither imports from, or join them.',
    ]);
    expect(found.size).toBe(3);
  });

  it('passes a folder and its subfolders importing each other, and tests reaching across', async () => {
    const found = await lint({
      ...PACKAGE,
      'packages/probe/src/config/editor.ts': "import { edit } from './toml-edit/edit.js';\nexport const editor = edit;\n",
      'packages/probe/src/config/settings.ts': 'export const settings = 1;\n',
      'packages/probe/src/config/toml-edit/edit.ts': "import { settings } from '../settings.js';\nexport const edit = settings;\n",
      'packages/probe/src/manager/manager.ts': 'export const manager = 1;\n',
      'packages/probe/src/manager/manager.test.ts': "import { fake } from '../testing/fake.js';\nexport const t = fake;\n",
      'packages/probe/src/testing/fake.ts': "import { manager } from '../manager/manager.js';\nexport const fake = manager;\n",
    });
    expect(found).toEqual(new Map());
  });
});
