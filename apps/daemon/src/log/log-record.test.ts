import { BlitzError } from '@blitz/core';
import { describe, expect, it } from 'vitest';
import { toHumanLine, toJsonLine, type LogRecord } from './log-record.js';

const NOON = new Date(2026, 9, 14, 12, 0, 1).getTime();

function record(fields: LogRecord['fields'], level: LogRecord['level'] = 'info', msg = 'hello'): LogRecord {
  return { time: NOON, level, msg, fields };
}

describe('toJsonLine', () => {
  it('writes time, level and msg first, then the fields, as one line', () => {
    const line = toJsonLine(record({ server: 'github', tools: 3 }, 'warn'));
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(Object.keys(JSON.parse(line) as object)).toEqual(['time', 'level', 'msg', 'server', 'tools']);
    expect(JSON.parse(line)).toEqual({ time: new Date(NOON).toISOString(), level: 'warn', msg: 'hello', server: 'github', tools: 3 });
  });

  it.each<[string, unknown, unknown]>([
    ['a string with a newline', 'a\nb', 'a\nb'],
    ['null', null, null],
    ['a bigint', 10n, '10'],
    ['nested arrays and objects', { a: [1, { b: 'c' }] }, { a: [1, { b: 'c' }] }],
    ['a function is left out', () => 1, undefined],
  ])('keeps %s as JSON can', (_name, value, expected) => {
    expect((JSON.parse(toJsonLine(record({ value }))) as { value?: unknown }).value).toEqual(expected);
  });

  it('writes an Error with its name, message, fields, cause and stack', () => {
    const err = new BlitzError('TIMEOUT', 'call timed out', { reason: 'CALL_TIMEOUT', cause: new Error('socket hang up') });
    const { err: written } = JSON.parse(toJsonLine(record({ err }))) as { err: Record<string, unknown> };
    expect(written).toMatchObject({ name: 'BlitzError', message: 'call timed out', code: 'TIMEOUT', reason: 'CALL_TIMEOUT' });
    expect(written.cause).toMatchObject({ name: 'Error', message: 'socket hang up' });
    expect(written.stack).toContain('call timed out');
  });

  it('writes a cycle as a marker instead of throwing', () => {
    const node: Record<string, unknown> = { name: 'a' };
    node.self = node;
    expect(JSON.parse(toJsonLine(record({ node })))).toMatchObject({ node: { name: 'a', self: '[Circular]' } });
  });

  it('keeps a shared (not cyclic) object in both places', () => {
    const shared = { x: 1 };
    expect(JSON.parse(toJsonLine(record({ a: shared, b: shared })))).toMatchObject({ a: { x: 1 }, b: { x: 1 } });
  });

  it('moves fields named like the line’s own keys aside instead of letting them forge it', () => {
    const parsed = JSON.parse(toJsonLine(record({ time: 'x', level: 'error', msg: 'forged' }))) as Record<string, unknown>;
    expect(parsed).toMatchObject({ level: 'info', msg: 'hello', _time: 'x', _level: 'error', _msg: 'forged' });
    expect(parsed.time).toBe(new Date(NOON).toISOString());
  });
});

describe('toHumanLine', () => {
  it.each<[string, LogRecord, string]>([
    ['info', record({}), '12:00:01 info  hello\n'],
    [
      'warn with fields',
      record({ server: 'github', attempt: 2 }, 'warn', 'restarting'),
      '12:00:01 warn  restarting server=github attempt=2\n',
    ],
    ['error', record({ ok: false }, 'error', 'failed'), '12:00:01 error failed ok=false\n'],
    ['a value with spaces is quoted', record({ reason: 'exited with code 1' }), '12:00:01 info  hello reason="exited with code 1"\n'],
    ['an empty value is quoted', record({ name: '' }), '12:00:01 info  hello name=""\n'],
    ['an Error shows its message', record({ err: new Error('boom') }), '12:00:01 info  hello err=boom\n'],
    ['an object as JSON', record({ args: ['-y', 'x'] }), '12:00:01 info  hello args=["-y","x"]\n'],
    ['undefined fields are left out', record({ gone: undefined, kept: 1 }), '12:00:01 info  hello kept=1\n'],
  ])('%s', (_name, given, expected) => {
    expect(toHumanLine(given)).toBe(expected);
  });
});
