import { describe, expect, it } from 'vitest';
import { BoundedLines, oversizeId } from './bounded-lines.js';

describe('BoundedLines', () => {
  it('splits lines across chunks, dropping a trailing CR', () => {
    const lines = new BoundedLines(() => 100);
    expect(lines.push(Buffer.from('{"a":1}\n{"b"'))).toEqual([{ line: '{"a":1}' }]);
    expect(lines.push(Buffer.from(':2}\r\n\n'))).toEqual([{ line: '{"b":2}' }, { line: '' }]);
  });

  it('skips a line past the limit as it streams, keeping its size and ends, then goes on', () => {
    const lines = new BoundedLines(() => 10);
    expect(lines.push(Buffer.from('{"result":"' + 'x'.repeat(2000)))).toEqual([]);
    const items = lines.push(Buffer.from('y'.repeat(1000) + '","jsonrpc":"2.0","id":7}\n{"ok":1}\n'));
    expect(items).toHaveLength(2);
    const first = items[0] as { oversize: { bytes: number; head: string; tail: string } };
    expect(first.oversize.bytes).toBe(11 + 2000 + 1000 + 25);
    expect(first.oversize.head.startsWith('{"result":"xxx')).toBe(true);
    expect(first.oversize.tail.endsWith('"id":7}')).toBe(true);
    expect(items[1]).toEqual({ line: '{"ok":1}' });
  });

  it.each([
    ['an id at the end', { bytes: 1, head: '{"result":{"id":99,', tail: 'xx","jsonrpc":"2.0","id":3}' }, 3],
    ['an id at the start', { bytes: 1, head: '{"jsonrpc":"2.0","id":"req-1","result":{', tail: 'xxxx"}]}}' }, 'req-1'],
    ['no id to be found', { bytes: 1, head: '{"result":{"id":5', tail: 'xxxx"}]}}' }, undefined],
  ])('oversizeId: %s', (_, line, id) => {
    expect(oversizeId(line)).toBe(id);
  });
});
