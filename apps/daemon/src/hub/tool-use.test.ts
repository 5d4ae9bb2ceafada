import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeClock } from '@blitz/clock';
import { afterEach, describe, expect, it } from 'vitest';
import { SAVE_DELAY_MS, ToolUse } from './tool-use.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-tool-use-'));
  dirs.push(dir);
  return path.join(dir, 'state', 'tool-use.json');
}

describe('ToolUse', () => {
  it('counts calls by server and tool; a snapshot does not move with later calls', () => {
    const use = new ToolUse();
    use.record('gh', 'search');
    use.record('gh', 'search');
    use.record('fs', 'search');
    const before = use.snapshot();
    use.record('gh', 'search');
    expect([before('gh', 'search'), before('fs', 'search'), before('gh', 'other')]).toEqual([2, 1, 0]);
    expect(use.snapshot()('gh', 'search')).toBe(3);
  });

  it('keeps its counts across a restart in its file', async () => {
    const file = tempFile();
    const use = new ToolUse({ file });
    for (let i = 0; i < 3; i++) use.record('gh', 'search');
    use.record('fs', 'read_file');
    await use.flush();
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ tools: { gh: { search: 3 }, fs: { read_file: 1 } } });
    const again = new ToolUse({ file }).snapshot();
    expect([again('gh', 'search'), again('fs', 'read_file')]).toEqual([3, 1]);
  });

  it('saves SAVE_DELAY_MS after the first call since the last save, with every call meanwhile, and not again until a call', async () => {
    const file = tempFile();
    const clock = new FakeClock();
    const use = new ToolUse({ file, clock });
    for (let i = 0; i < 100; i++) use.record('gh', 'search');
    clock.advance(SAVE_DELAY_MS - 1);
    await use.whenWritten();
    expect(fs.existsSync(file)).toBe(false);
    use.record('fs', 'read_file');
    clock.advance(1);
    await use.whenWritten();
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ tools: { gh: { search: 100 }, fs: { read_file: 1 } } });
    // Nothing called since: no save is due.
    fs.rmSync(file);
    clock.advance(SAVE_DELAY_MS);
    await use.whenWritten();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('a file it cannot read is warned of and counting starts afresh', () => {
    const file = tempFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{ not json');
    const warnings: string[] = [];
    const use = new ToolUse({ file, warn: (m) => warnings.push(m) });
    expect(use.snapshot()('gh', 'search')).toBe(0);
    expect(warnings).toEqual([expect.stringMatching(/^tool use counts in .*tool-use\.json not read \(.*\); counting afresh$/)]);
  });
});
