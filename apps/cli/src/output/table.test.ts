import { describe, expect, it } from 'vitest';
import { renderRows, renderTable } from './table.js';

describe('renderTable', () => {
  it('pads every column but the last to its widest cell, header included', () => {
    expect(
      renderTable(
        ['NAME', 'STATE'],
        [
          ['everything', 'connected'],
          ['fs', 'idle'],
        ],
      ),
    ).toBe('NAME        STATE\neverything  connected\nfs          idle');
  });
});

describe('renderRows', () => {
  it('aligns rows without a header (mcp list: the running copies under names of different lengths)', () => {
    expect(
      renderRows([
        ['everything', 'pid 1 for /a'],
        ['fs', 'pid 2 for /a'],
      ]),
    ).toBe('everything  pid 1 for /a\nfs          pid 2 for /a');
  });
});
