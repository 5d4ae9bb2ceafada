import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '@blitz/client';
import { Redactor } from '@blitz/core';
import { AuditLog } from './audit-log.js';

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-audit-log-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const entry = (name: string, args?: unknown): AuditEntry => ({
  time: '2026-12-02T00:00:00.000Z',
  kind: 'tool',
  client: 'c',
  agent: 'main',
  workspace: '/ws',
  server: 's',
  name,
  rule: { by: 'auto_approve' },
  outcome: 'result',
  durationMs: 1,
  argsHash: 'h',
  ...(args === undefined ? {} : { args }),
});

function open(opts: { maxBytes?: number; keep?: boolean; stopped?: string[] } = {}): AuditLog {
  const redactor = new Redactor(['tok-123456']);
  return new AuditLog({
    file: path.join(dir, 'logs', 'audit.jsonl'),
    maxBytes: () => opts.maxBytes ?? 1_000_000,
    keepArguments: () => opts.keep ?? false,
    redactor,
    onStopped: (m) => opts.stopped?.push(m),
  });
}

describe('AuditLog', () => {
  it('writes a 0600 line a call, the arguments only when asked and then redacted', () => {
    const file = path.join(dir, 'logs', 'audit.jsonl');
    open().write(entry('a', { token: 'tok-123456' }));
    open({ keep: true }).write(entry('b', { token: 'tok-123456', n: 1 }));
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditEntry);
    expect(lines.map((l) => [l.name, l.args])).toEqual([
      ['a', undefined],
      ['b', { token: '***', n: 1 }],
    ]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('rotates by size', () => {
    // Two lines a file.
    const log = open({ maxBytes: 2 * Buffer.byteLength(`${JSON.stringify(entry('call-0'))}\n`) });
    for (let i = 0; i < 6; i++) log.write(entry(`call-${i}`));
    const files = fs.readdirSync(path.join(dir, 'logs')).sort();
    expect(files).toEqual(['audit.jsonl', 'audit.jsonl.1', 'audit.jsonl.2']);
    const all = ['audit.jsonl.2', 'audit.jsonl.1', 'audit.jsonl'].flatMap((f) =>
      fs
        .readFileSync(path.join(dir, 'logs', f), 'utf8')
        .trim()
        .split('\n'),
    );
    expect(all.map((l) => (JSON.parse(l) as AuditEntry).name)).toEqual(['call-0', 'call-1', 'call-2', 'call-3', 'call-4', 'call-5']);
  });

  it('a write that fails stops it, said once; later calls are not written and do not throw', () => {
    fs.mkdirSync(path.join(dir, 'logs'));
    // A folder where the file should be: every open fails (EISDIR), as a full or broken disk would.
    fs.mkdirSync(path.join(dir, 'logs', 'audit.jsonl'));
    const stopped: string[] = [];
    const log = open({ stopped });
    log.write(entry('a'));
    log.write(entry('b'));
    expect(stopped).toEqual([expect.stringContaining('could not be written (EISDIR) and is stopped: calls go on')]);
    expect(log.stopped).toBe(stopped[0]);
  });
});
