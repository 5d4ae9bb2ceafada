import { describe, expect, it } from 'vitest';
import { ServerLogBook } from './server-log-book.js';

const T0 = Date.parse('2026-12-02T07:00:00.000Z');

function book(keep?: number) {
  let now = T0;
  const b = new ServerLogBook({ now: () => now, redact: (t) => t.replaceAll('s3cret', '***'), ...(keep ? { keep } : {}) });
  return { b, tick: () => (now += 1000) };
}

describe('ServerLogBook', () => {
  it('keeps whole stderr lines per server, joining chunks cut mid-line, redacted', () => {
    const { b } = book();
    b.stderr('fs', 'start');
    b.stderr('fs', 'ing up\ntoken s3cret\npart');
    b.stderr('gh', 'other\n');
    expect(b.read('fs').lines.map((l) => [l.source, l.text])).toEqual([
      ['stderr', 'starting up'],
      ['stderr', 'token ***'],
    ]);
    b.stderr('fs', 'ial\n');
    expect(b.read('fs').lines.at(-1)!.text).toBe('partial');
    expect(b.read('gh').lines.map((l) => l.text)).toEqual(['other']);
  });

  it("keeps the daemon's entries that name a server, with their fields, and numbers every line once", () => {
    const { b } = book();
    b.record({ time: T0 + 5, level: 'info', msg: 'MCP server state', fields: { server: 'fs', state: 'connected', workspace: '/w' } });
    b.record({ time: T0 + 6, level: 'info', msg: 'workspace opened', fields: { workspace: '/w' } });
    b.stderr('fs', 'hello\n');
    const { lines, last } = b.read('fs');
    expect(lines).toEqual([
      {
        seq: 1,
        time: new Date(T0 + 5).toISOString(),
        source: 'daemon',
        level: 'info',
        text: 'MCP server state state=connected workspace=/w',
      },
      { seq: 2, time: new Date(T0).toISOString(), source: 'stderr', text: 'hello' },
    ]);
    expect(last).toBe(2);
    expect(b.read('fs', 1).lines.map((l) => l.seq)).toEqual([2]);
    expect(b.read('fs', 2).lines).toEqual([]);
  });

  it('keeps only the last lines of a server, and cuts a line without end', () => {
    const { b } = book(3);
    for (let i = 0; i < 5; i++) b.stderr('fs', `line ${i}\n`);
    expect(b.read('fs').lines.map((l) => l.text)).toEqual(['line 2', 'line 3', 'line 4']);
    b.stderr('fs', 'x'.repeat(10_000));
    expect(b.read('fs').lines.at(-1)!.text).toHaveLength(4_000);
  });
});
