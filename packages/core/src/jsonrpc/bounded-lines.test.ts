import { describe, expect, it } from 'vitest';
import { BoundedLines, oversizeId } from './bounded-lines.js';

describe('BoundedLines', () => {
  it('splits lines across chunks, dropping a trailing CR', () => {
    const lines = new BoundedLines(() => 100);
    expect(lines.push(Buffer.from('{"a":1}\n{"b"'))).toEqual([{ line: '{"a":1}' }]);
    expect(lines.push(Buffer.from(':2}\r\n\n'))).toEqual([{ line: '{"b":2}' }, { line: '' }]);
  });

  it('a chunk of whole lines gives each as it was written: CRs dropped, blank lines kept, characters of several bytes whole, one cut across chunks too', () => {
    const lines = new BoundedLines(() => 100);
    const bytes = Buffer.from('{"a":"é"}\r\n\n{"b":"日本"}\n{"c":"本日"}\n');
    const cut = bytes.length - 8; // inside the first 本 of the last line
    expect(lines.push(bytes.subarray(0, cut))).toEqual([{ line: '{"a":"é"}' }, { line: '' }, { line: '{"b":"日本"}' }]);
    expect(lines.push(bytes.subarray(cut))).toEqual([{ line: '{"c":"本日"}' }]);
  });

  it('lines of a chunk that together are past the limit are each held to it: one within passes, one past it is skipped; one of exactly the limit passes', () => {
    const lines = new BoundedLines(() => 10);
    const items = lines.push(Buffer.from(`0123456789\n${'x'.repeat(11)}\nshort\n`));
    expect(items).toEqual([{ line: '0123456789' }, { oversize: expect.objectContaining({ bytes: 11 }) }, { line: 'short' }]);
    expect(new BoundedLines(() => 10).push(Buffer.from('0123456789\n'))).toEqual([{ line: '0123456789' }]);
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
