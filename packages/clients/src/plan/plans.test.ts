import type { ServerEntry } from '@blitz/core';
import { describe, expect, it } from 'vitest';
import type { ClientId } from '../client-spec.js';
import type { ConnectionRecord } from '../files/backup-store.js';
import { isBlitzEntry } from './fingerprint.js';
import { planConnect, type ClientServer } from './plan-connect.js';
import { planDisconnect } from './plan-disconnect.js';
import { planImport, type FoundServer } from './plan-import.js';

const stdio = (name: string, command = 'npx', args: string[] = ['-y', name], env?: Record<string, string>): ServerEntry => ({
  name,
  command,
  args,
  ...(env ? { env } : {}),
});
const http = (name: string, url: string, headers?: Record<string, string>): ServerEntry => ({ name, url, ...(headers ? { headers } : {}) });
const found = (client: ClientId, entry: ServerEntry): FoundServer => ({
  client,
  file: `/${client}`,
  name: entry.name,
  entry,
  warnings: [],
});
const inClient = (entry: ServerEntry, raw: unknown = { x: entry.name }): ClientServer => ({
  name: entry.name,
  raw,
  mapping: { kind: 'server', entry, warnings: [] },
});

describe('planImport', () => {
  it('imports a server found in several clients once, under its first name', () => {
    const a = found('claude-code', stdio('memory', 'npx', ['-y', 'mem'], { F: '${HOME}/m' }));
    const b = found('cursor', stdio('mem', 'npx', ['-y', 'mem'], { F: '${env:HOME}/m' }));
    const plan = planImport([a, b], []);
    expect(plan.add).toEqual([a]);
    expect(plan.duplicates).toEqual([{ found: b, sameAs: a }]);
  });

  it('header names compare without case; different headers are different servers', () => {
    const a = found('claude-code', http('gh', 'https://g/mcp', { Authorization: 'Bearer ${T}' }));
    const b = found('cursor', http('gh', 'https://g/mcp', { authorization: 'Bearer ${T}' }));
    const c = found('gemini', http('gh', 'https://g/mcp', { Authorization: 'Bearer ${OTHER}' }));
    const plan = planImport([a, b, c], []);
    expect([plan.add, plan.duplicates.map((d) => d.found), plan.conflicts]).toEqual([
      [a],
      [b],
      [{ found: c, kept: { from: 'client', found: a } }],
    ]);
  });

  it('a server Blitz has is present; a different one under a Blitz name is a conflict with both definitions', () => {
    const existing = [stdio('fs'), stdio('docs', 'npx', ['docs@1'])];
    const same = found('cursor', stdio('files', 'npx', ['-y', 'fs']));
    const other = found('codex', stdio('docs', 'npx', ['docs@2']));
    const plan = planImport([same, other], existing);
    expect(plan.present).toEqual([{ found: same, as: 'fs' }]);
    expect(plan.conflicts).toEqual([{ found: other, kept: { from: 'blitz', entry: existing[1] } }]);
    expect(plan.add).toEqual([]);
  });
});

describe('planConnect', () => {
  const native = { command: '/b/blitz.js', args: ['connect'] };

  it('adds blitz, takes out what Blitz runs, keeps the rest with the reason', () => {
    const servers = [
      inClient(stdio('fs')),
      inClient(stdio('new')),
      { name: 'old', raw: {}, mapping: { kind: 'skipped', reason: 'type: not SSE' } } as ClientServer,
    ];
    expect(planConnect(servers, [stdio('files', 'npx', ['-y', 'fs'])], native)).toEqual({
      blitz: 'add',
      remove: [{ name: 'fs', as: 'files' }],
      keep: [
        { name: 'new', why: 'not in Blitz yet (blitz clients import adds it)' },
        { name: 'old', why: 'Blitz cannot run it: type: not SSE' },
      ],
    });
  });

  it('a server whose name Blitz uses for another server stays, and says so', () => {
    expect(
      planConnect(
        [inClient(stdio('git', 'uvx', ['mcp-server-git']))],
        [stdio('git', 'uvx', ['mcp-server-git', '--repository', '/r'])],
        native,
      ).keep,
    ).toEqual([{ name: 'git', why: 'Blitz has a different server named git; rename one of them, then import it' }]);
  });

  it('a second run changes nothing; a blitz entry that differs is updated', () => {
    const ours = inClient(stdio('blitz', '/b/blitz.js', ['connect']), native);
    expect(planConnect([ours], [], native)).toEqual({ blitz: 'same', remove: [], keep: [] });
    expect(planConnect([ours], [], { ...native, command: '/new/blitz.js' }).blitz).toBe('update');
  });

  it('another entry that runs blitz connect is left alone', () => {
    expect(
      planConnect(
        [inClient(stdio('hub', '/usr/bin/blitz', ['connect', '--agent', 'x']))],
        [stdio('hub', '/usr/bin/blitz', ['connect', '--agent', 'x'])],
        native,
      ).keep,
    ).toEqual([{ name: 'hub', why: 'it runs blitz connect itself' }]);
  });
});

describe('isBlitzEntry', () => {
  it.each([
    [stdio('b', '/opt/blitz/bin/blitz.js', ['connect']), true],
    [stdio('b', '/usr/bin/node', ['/opt/blitz/bin/blitz.js', 'connect']), true],
    [stdio('b', 'C:\\npm\\blitz.cmd', ['connect']), true],
    [stdio('b', 'npx', ['connect']), false],
    [stdio('b', '/opt/blitz/bin/blitz.js', ['daemon']), false],
  ])('%j → %s', (entry, expected) => {
    expect(isBlitzEntry(entry)).toBe(expected);
  });
});

describe('planDisconnect', () => {
  const record: ConnectionRecord = {
    client: 'cursor',
    file: '/f',
    connectedAt: 't',
    backup: '/b',
    after: 'AFTER',
    removed: [
      { name: 'fs', saved: { kind: 'json', value: { command: 'npx' } } },
      { name: 'gh', saved: { kind: 'json', value: { url: 'https://g' } } },
    ],
    previousBlitz: null,
  };

  it('restores the bytes when nothing changed the file since', () => {
    expect(planDisconnect(record, 'AFTER', ['blitz'])).toEqual({ kind: 'restore' });
  });

  it('otherwise undoes only its own changes, leaving a server the user put back', () => {
    expect(planDisconnect(record, 'EDITED', ['blitz', 'gh', 'mine'])).toEqual({
      kind: 'undo',
      removeBlitz: true,
      restoreBlitz: null,
      putBack: [record.removed[0]],
      present: ['gh'],
    });
  });
});
