import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_DEPTH, nestsDeeperThan, refuseTooDeep } from './message-depth.js';

/** `{"a": {"a": … 1 …}}` with `levels` objects. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 ? { a: value } : [value];
  return value;
}

describe('nestsDeeperThan', () => {
  it.each<[string, unknown, number, boolean]>([
    ['a scalar', 'x', 0, false],
    ['an empty object is one level', {}, 1, false],
    ['exactly the limit', nested(64), 64, false],
    ['one past the limit', nested(65), 64, true],
    ['deep in one branch of a wide value', { a: [1, 2, { b: nested(10) }], c: 'x' }, 12, true],
  ])('%s', (_name, value, max, expected) => {
    expect(nestsDeeperThan(value, max)).toBe(expected);
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    expect(nestsDeeperThan(nested(100_000), MAX_MESSAGE_DEPTH)).toBe(true);
  });
});

describe('refuseTooDeep', () => {
  const deep = { jsonrpc: '2.0' as const, id: 7, method: 'tools/call', params: { name: 'echo', arguments: { x: nested(100) } } };

  it('answers a request with -32602 naming the limit, drops a notification, passes what is fine', () => {
    expect(refuseTooDeep(deep, 64)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32602, message: 'Invalid params: the message nests objects and arrays deeper than 64 levels; it was not passed on' },
    });
    expect(refuseTooDeep({ jsonrpc: '2.0', method: 'notifications/x', params: { x: nested(100) } }, 64)).toBeNull();
    expect(refuseTooDeep({ ...deep, params: { name: 'echo', arguments: { x: nested(10) } } }, 64)).toBeUndefined();
  });
});
