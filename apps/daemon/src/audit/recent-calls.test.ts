import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AuditEntry } from '@blitz/client';
import { afterEach, describe, expect, it } from 'vitest';
import { RecentCalls } from './recent-calls.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function call(server: string | null, name: string, extra: Partial<AuditEntry> = {}): AuditEntry {
  return {
    time: '2026-12-02T07:00:00.000Z',
    kind: 'tool',
    client: 'test',
    agent: 'main',
    workspace: '/w',
    server,
    name,
    rule: { by: 'auto_approve' },
    durationMs: 3,
    argsHash: 'h',
    outcome: 'result',
    ...extra,
  } as AuditEntry;
}

function auditFile(lines: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-recent-'));
  dirs.push(dir);
  const file = path.join(dir, 'audit.jsonl');
  fs.writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
  return file;
}

describe('RecentCalls', () => {
  it('starts from the end of the audit log, skipping lines that are not entries, then adds each call; newest first', () => {
    const file = auditFile([
      JSON.stringify(call('fs', 'read')),
      '{not json',
      JSON.stringify(call('gh', 'list')),
      JSON.stringify(call(null, 'x')),
    ]);
    const recent = new RecentCalls(file);
    recent.add(call('fs', 'write'));
    expect(recent.latest('fs', 10).map((c) => c.name)).toEqual(['write', 'read']);
    expect(recent.latest('gh', 10).map((c) => c.name)).toEqual(['list']);
    expect(recent.latest('fs', 1).map((c) => c.name)).toEqual(['write']);
    expect(recent.latest('none', 10)).toEqual([]);
  });

  it('keeps a bounded number per server and never the arguments', () => {
    const recent = new RecentCalls(path.join(os.tmpdir(), 'no-such-audit-file.jsonl'), 3);
    for (let i = 0; i < 5; i++) recent.add(call('fs', `t${i}`, { args: { path: 'secret' } }));
    const latest = recent.latest('fs', 10);
    expect(latest.map((c) => c.name)).toEqual(['t4', 't3', 't2']);
    expect(latest.every((c) => !('args' in c))).toBe(true);
  });
});
