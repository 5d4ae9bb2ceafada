import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './unified-diff.js';

const lines = (n: number, f: (i: number) => string = (i) => `line ${i}`) => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\n', 'a\n', 'f')).toBe('');
  });

  it('gives far-apart changes a hunk each, with three lines of context and line numbers', () => {
    const before = lines(20);
    const after = before.replace('line 2\n', 'line two\n').replace('line 18\n', '');
    expect(unifiedDiff(before, after, 'f')).toBe(
      [
        '--- f',
        '+++ f (after)',
        '@@ -1,5 +1,5 @@',
        ' line 1',
        '-line 2',
        '+line two',
        ' line 3',
        ' line 4',
        ' line 5',
        '@@ -15,6 +15,5 @@',
        ' line 15',
        ' line 16',
        ' line 17',
        '-line 18',
        ' line 19',
        ' line 20',
        '',
      ].join('\n'),
    );
  });

  it('shows a new file as one added hunk', () => {
    expect(unifiedDiff('', '{\n}\n', 'f')).toBe('--- f\n+++ f (after)\n@@ -0,0 +1,2 @@\n+{\n+}\n');
  });
});
