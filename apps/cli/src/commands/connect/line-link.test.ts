import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineLink, type LineLinkOptions } from './line-link.js';

function link(options: Partial<LineLinkOptions> = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: Buffer[] = [];
  const oversize: { bytes: number; head: string; tail: string }[] = [];
  const events: string[] = [];
  const l = new LineLink({ input, output }, { maxLineBytes: 1024, ...options });
  l.onlines = (bytes) => lines.push(bytes);
  l.onoversize = (line) => oversize.push(line);
  l.onend = () => events.push('end');
  l.onclose = () => events.push('close');
  l.start();
  return { l, input, output, lines, oversize, events };
}

describe('LineLink', () => {
  it('hands over a chunk of whole lines as the chunk itself, not copied', () => {
    const { input, lines } = link();
    const chunk = Buffer.from('{"a":1}\n{"b":2}\r\n');
    input.write(chunk);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(chunk);
  });

  it('cuts a chunk after its last newline and holds the rest until its line ends', () => {
    const { input, lines } = link();
    input.write('{"a":1}\n{"b"');
    input.write(':2}\n{"c":3}\n{"d"');
    input.write(':4}');
    input.write('\n');
    expect(lines.map(String)).toEqual(['{"a":1}\n', '{"b":2}\n', '{"c":3}\n', '{"d":4}\n']);
  });

  it('the bytes read past an upgrade come first', () => {
    const input = new PassThrough();
    const l = new LineLink({ input, output: new PassThrough() }, { maxLineBytes: 1024, head: Buffer.from('{"a":1}\n{"b"') });
    const lines: string[] = [];
    l.onlines = (bytes) => lines.push(String(bytes));
    l.start();
    input.write(':2}\n');
    expect(lines).toEqual(['{"a":1}\n', '{"b":2}\n']);
  });

  it('a line past the bound is skipped as it streams, reported with its size and ends; the lines around it are handed over', () => {
    const { input, lines, oversize } = link({ maxLineBytes: 16 });
    input.write('{"a":1}\n{"method":"x","params":"');
    input.write('y'.repeat(40));
    input.write('","id":9}\n{"b":2}\n');
    // Within one chunk too.
    input.write(`{"c":"${'z'.repeat(20)}"}\n{"d":4}\n`);
    expect(lines.map(String)).toEqual(['{"a":1}\n', '{"b":2}\n', '{"d":4}\n']);
    expect(oversize.map((o) => o.bytes)).toEqual([73, 28]);
    expect(oversize[0]).toMatchObject({ head: expect.stringMatching(/^\{"method":"x"/), tail: expect.stringMatching(/"id":9\}$/) });
  });

  it('half-open: the input ending is told, and what is written still goes out until close', async () => {
    const { l, input, output, events } = link({ halfOpen: true });
    input.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['end']);
    expect(l.write('{"late":1}\n')).toBe(true);
    expect(String(output.read())).toBe('{"late":1}\n');
    await l.close();
    expect(events).toEqual(['end', 'close']);
    expect(l.write('x\n')).toBe(false);
  });

  it('otherwise the input ending closes the link, once', async () => {
    const { l, input, events } = link();
    input.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['close']);
    expect(l.closed).toBe(true);
    await l.close();
    expect(events).toEqual(['close']);
  });
});
