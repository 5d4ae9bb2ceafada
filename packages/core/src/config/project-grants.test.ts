import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverConfig } from '../testing/server-config.js';
import { askedGrants, withGrants, type ProjectGrant } from './project-grants.js';
import type { ServerConfig } from './server-config.js';

const root = '/work/proj';
const project = (over: Partial<ServerConfig>) => serverConfig('p', { source: { kind: 'project', file: `${root}/.mcp.json` }, ...over });

describe('withGrants', () => {
  it.each<[string, Partial<ServerConfig>, ProjectGrant[], Partial<ServerConfig>]>([
    ['auto_approve', { autoApprove: true }, ['auto_approve'], { autoApprove: false }],
    ['sandbox = false', { sandbox: false }, ['sandbox'], { sandbox: true }],
    ['sandbox_write outside', { sandboxWrite: ['/etc', `${root}/build`] }, ['sandbox_write'], { sandboxWrite: undefined }],
    [
      'sandbox_write inside only (already writable; a link there could point out)',
      { sandboxWrite: [`${root}/build`, '~/x/../../..' + root] },
      [],
      { sandboxWrite: undefined },
    ],
    ['roots outside', { roots: ['~/.ssh', `${root}/src`] }, ['roots'], { roots: [`${root}/src`] }],
    ['roots all outside: the workspace again', { roots: ['/', `${root}/../other`] }, ['roots'], { roots: undefined }],
    ['roots = false (fewer powers)', { roots: false }, [], { roots: false }],
    ['nothing asked', {}, [], {}],
  ])('%s: not granted falls back to the safe default', (_what, asks, withheld, runs) => {
    const granted = withGrants(project(asks), root, new Set());
    expect(granted.withheld).toEqual(withheld);
    expect(granted.config).toEqual({ ...project(asks), ...runs });
    expect(askedGrants(project(asks), root)).toEqual(withheld);
  });

  it('keeps what is granted, and only that', () => {
    const asks = project({ autoApprove: true, sandbox: false, roots: ['/data'] });
    const granted = withGrants(asks, root, new Set<ProjectGrant>(['sandbox', 'roots']));
    expect(granted).toEqual({ config: { ...asks, autoApprove: false }, withheld: ['auto_approve'] });
    const writes = withGrants(project({ sandboxWrite: ['/data', `${root}/out`] }), root, new Set<ProjectGrant>(['sandbox_write']));
    expect(writes.config.sandboxWrite).toEqual(['/data']);
  });

  it('an HTTP server has no sandbox to leave', () => {
    expect(askedGrants(project({ transport: { kind: 'http', url: 'https://x.example/mcp', headers: {} }, sandbox: false }), root)).toEqual(
      [],
    );
  });

  it('a path in the home is outside unless it is under the project', () => {
    const home = os.homedir();
    const inHome = path.join(home, 'proj');
    expect(askedGrants(project({ roots: ['~/proj/src'] }), inHome)).toEqual([]);
    expect(askedGrants(project({ roots: ['~'] }), inHome)).toEqual(['roots']);
  });
});
