import { describe, expect, it } from 'vitest';
import { startFirst } from './start-first-sequencer.js';

describe('startFirst', () => {
  const first = ['conformance/slow.real.test.ts', 'hub/slower.real.test.ts'];

  it('moves the listed files to the front in the listed order, the rest keeping theirs', () => {
    const files = [
      '/r/test/a.real.test.ts',
      '/r/test/conformance/slow.real.test.ts',
      '/r/test/b.real.test.ts',
      '/r/test/hub/slower.real.test.ts',
    ];
    expect(startFirst(files, first, (f) => f)).toEqual([
      '/r/test/conformance/slow.real.test.ts',
      '/r/test/hub/slower.real.test.ts',
      '/r/test/a.real.test.ts',
      '/r/test/b.real.test.ts',
    ]);
  });

  it('matches a whole path part, with Windows separators too', () => {
    const files = ['C:\\r\\test\\x.real.test.ts', '/r/test/notconformance/slow.real.test.ts', 'C:\\r\\test\\hub\\slower.real.test.ts'];
    expect(startFirst(files, first, (f) => f)).toEqual([
      'C:\\r\\test\\hub\\slower.real.test.ts',
      'C:\\r\\test\\x.real.test.ts',
      '/r/test/notconformance/slow.real.test.ts',
    ]);
  });
});
