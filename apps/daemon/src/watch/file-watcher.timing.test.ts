import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeClock, type Clock } from '@blitz/clock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileWatcher, type FileWatcherOptions } from './file-watcher.js';

/*
 * Timing on a fake clock: the debounce and the polling fallback. Polling is tested with
 * fs.watch off, so only the poll can have found a change; checks read the file at once
 * when their timer fires, so every step here is synchronous once the clock moves.
 */

let dir: string;
let clock: FakeClock;
let watcher: FileWatcher;
let events: string[];

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-watch-timing-')));
  clock = new FakeClock();
  events = [];
});
afterEach(() => {
  watcher.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function start(files: string[], options: FileWatcherOptions = {}): void {
  watcher = new FileWatcher({ clock, fsWatch: false, ...options });
  watcher.onChange((file) => events.push(file));
  for (const file of files) watcher.watch(file);
}

const at = (...parts: string[]) => path.join(dir, ...parts);
/** One poll (2 s) and the debounce after it (150 ms). */
const POLL_AND_DEBOUNCE = 2_150;

describe('FileWatcher polling', () => {
  it('finds a change on the next poll, then reads it after the debounce', () => {
    fs.writeFileSync(at('settings.toml'), 'a');
    start([at('settings.toml')]);
    fs.writeFileSync(at('settings.toml'), 'b');
    clock.advance(1_999);
    expect(events).toEqual([]);
    clock.advance(1 + 149);
    expect(events).toEqual([]);
    clock.advance(1);
    expect(events).toEqual([at('settings.toml')]);
    clock.advance(10 * POLL_AND_DEBOUNCE);
    expect(events).toEqual([at('settings.toml')]);
  });

  it.each<[string, { path: string[]; before?: string; act: (file: string) => void; heard: boolean }]>([
    ['created', { path: ['file'], act: (file) => fs.writeFileSync(file, 'x'), heard: true }],
    [
      'created with its folders',
      {
        path: ['project', '.agents', 'mcp_config.json'],
        act: (file) => {
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, 'x');
        },
        heard: true,
      },
    ],
    ['edited', { path: ['file'], before: 'old', act: (file) => fs.appendFileSync(file, ', new'), heard: true }],
    ['deleted', { path: ['file'], before: 'old', act: (file) => fs.rmSync(file), heard: true }],
    [
      'written as it was (its stat changes, its bytes do not)',
      {
        path: ['file'],
        before: 'old',
        act: (file) => {
          fs.writeFileSync(file, 'old');
          fs.utimesSync(file, 1, 1);
        },
        heard: false,
      },
    ],
  ])('hears a file %s, or not', (_name, c) => {
    const file = at(...c.path);
    if (c.before !== undefined) fs.writeFileSync(file, c.before);
    start([file]);
    c.act(file);
    clock.advance(POLL_AND_DEBOUNCE);
    expect(events).toEqual(c.heard ? [file] : []);
  });

  it('hears a symlink re-pointed to other content', () => {
    fs.writeFileSync(at('one'), '1');
    fs.writeFileSync(at('two'), '2');
    fs.symlinkSync(at('one'), at('settings.toml'));
    start([at('settings.toml')]);
    fs.rmSync(at('settings.toml'));
    fs.symlinkSync(at('two'), at('settings.toml'));
    clock.advance(POLL_AND_DEBOUNCE);
    expect(events).toEqual([at('settings.toml')]);
  });

  it('keeps no timer while nothing is watched', () => {
    start([at('a'), at('b')]);
    expect(clock.pendingTimers()).toBe(1);
    watcher.unwatch(at('a'));
    expect(clock.pendingTimers()).toBe(1);
    watcher.unwatch(at('b'));
    expect(clock.pendingTimers()).toBe(0);
    watcher.watch(at('a'));
    expect(clock.pendingTimers()).toBe(1);
    watcher.close();
    expect(clock.pendingTimers()).toBe(0);
  });

  it('uses the poll interval and debounce it is given', () => {
    start([at('a')], { pollMs: 500, debounceMs: 20 });
    fs.writeFileSync(at('a'), 'x');
    clock.advance(519);
    expect(events).toEqual([]);
    clock.advance(1);
    expect(events).toEqual([at('a')]);
  });
});

describe('FileWatcher listeners', () => {
  it('stops calling a listener once it unsubscribes', () => {
    start([at('a')]);
    const seen: string[] = [];
    const unsubscribe = watcher.onChange((file) => seen.push(file));
    fs.writeFileSync(at('a'), '1');
    clock.advance(POLL_AND_DEBOUNCE);
    unsubscribe();
    fs.writeFileSync(at('a'), '2');
    clock.advance(POLL_AND_DEBOUNCE);
    expect(seen).toEqual([at('a')]);
    expect(events).toEqual([at('a'), at('a')]);
  });

  it('calls every listener when one throws, and hands the error to onError', () => {
    const errors: unknown[] = [];
    start([at('a')], { onError: (error) => errors.push(error) });
    watcher.onChange(() => {
      throw new Error('listener bug');
    });
    const after: string[] = [];
    watcher.onChange((file) => after.push(file));
    fs.writeFileSync(at('a'), '1');
    clock.advance(POLL_AND_DEBOUNCE);
    expect(after).toEqual([at('a')]);
    expect(errors).toEqual([new Error('listener bug')]);
  });

  it('rethrows a listener’s error without onError, and keeps watching', () => {
    start([at('a')]);
    watcher.onChange(() => {
      throw new Error('listener bug');
    });
    fs.writeFileSync(at('a'), '1');
    expect(() => clock.advance(POLL_AND_DEBOUNCE)).toThrow('listener bug');
    fs.writeFileSync(at('a'), '2');
    expect(() => clock.advance(POLL_AND_DEBOUNCE)).toThrow('listener bug');
    expect(events).toEqual([at('a'), at('a')]);
  });
});

describe('FileWatcher debounce (fs.watch on a fake clock)', () => {
  it('pushes the check back on each change, and reads once after the last', async () => {
    const counting = countingSchedules(clock);
    fs.writeFileSync(at('settings.toml'), 'a');
    start([at('settings.toml')], { clock: counting, fsWatch: true, pollMs: 3_600_000 });
    // A replace by rename is exactly one event for the file's name.
    replaceByRename(at('settings.toml'), 'b');
    await expect.poll(() => counting.scheduled).toBe(2);
    clock.advance(100);
    replaceByRename(at('settings.toml'), 'c');
    await expect.poll(() => counting.scheduled).toBe(3);
    clock.advance(100);
    expect(events).toEqual([]);
    clock.advance(50);
    expect(events).toEqual([at('settings.toml')]);
    clock.advance(1_000);
    expect(events).toEqual([at('settings.toml')]);
  });
});

function replaceByRename(file: string, content: string): void {
  fs.writeFileSync(`${file}.tmp`, content);
  fs.renameSync(`${file}.tmp`, file);
}

/** The fake clock, counting timers set, so a test can wait for fs.watch's event to arrive. */
function countingSchedules(inner: Clock): Clock & { scheduled: number } {
  const counting = {
    scheduled: 0,
    now: () => inner.now(),
    setTimeout(fn: () => void, ms: number) {
      counting.scheduled++;
      return inner.setTimeout(fn, ms);
    },
  };
  return counting;
}
