import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '@blitz/clock';
import { FileWatcher, type FileWatcherOptions } from './file-watcher.js';

/*
 * Real files, real fs.watch, real timers. The poll is pushed out of reach so each change
 * below is seen through fs.watch alone (polling has its own tests, on a fake clock).
 * "Nothing happened" is shown without sleeping: a watched sentinel in the same folder is
 * changed after the writes under test, and its event comes after any theirs would have
 * (fs.watch delivers in order, each debounce is as long, and checks run one by one).
 */

const NO_POLL = 3_600_000;
const WAIT = { timeout: 5_000 };

let dir: string;
let watcher: FileWatcher;
let events: string[];
let sentinelWrites: number;

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-watch-')));
  events = [];
  sentinelWrites = 0;
});
afterEach(() => {
  watcher.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function start(files: string[], options: FileWatcherOptions = {}): void {
  watcher = new FileWatcher({ pollMs: NO_POLL, ...options });
  watcher.onChange((file) => events.push(file));
  for (const file of files) watcher.watch(file);
}

const at = (...parts: string[]) => path.join(dir, ...parts);
const changesOf = (file: string) => events.filter((event) => event === file);

/** Resolves once every change made before it has been heard (or found to be none). */
async function settle(sentinel = at('sentinel')): Promise<void> {
  const count = sentinelWrites++;
  fs.writeFileSync(sentinel, `sentinel ${count}`);
  await expect.poll(() => changesOf(sentinel).length, WAIT).toBe(count + 1);
}

function replaceByRename(file: string, content: string): void {
  const temp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(temp, content);
  fs.renameSync(temp, file);
}

describe('FileWatcher (fs.watch)', () => {
  it('hears a write in place', async () => {
    fs.writeFileSync(at('settings.toml'), 'a');
    start([at('settings.toml')]);
    fs.writeFileSync(at('settings.toml'), 'b');
    await expect.poll(() => events, WAIT).toEqual([at('settings.toml')]);
  });

  it('hears a replace by rename, as editors save, and keeps hearing the new file', async () => {
    fs.writeFileSync(at('settings.toml'), 'a');
    start([at('settings.toml')]);
    replaceByRename(at('settings.toml'), 'b');
    await expect.poll(() => events, WAIT).toEqual([at('settings.toml')]);
    fs.writeFileSync(at('settings.toml'), 'c');
    await expect.poll(() => events, WAIT).toEqual([at('settings.toml'), at('settings.toml')]);
  });

  it('hears a missing file created, then deleted, then created again', async () => {
    start([at('.mcp.json')]);
    fs.writeFileSync(at('.mcp.json'), '{}');
    await expect.poll(() => events.length, WAIT).toBe(1);
    fs.rmSync(at('.mcp.json'));
    await expect.poll(() => events.length, WAIT).toBe(2);
    fs.writeFileSync(at('.mcp.json'), '{}');
    await expect.poll(() => events, WAIT).toEqual([at('.mcp.json'), at('.mcp.json'), at('.mcp.json')]);
  });

  it('hears a file created in folders that did not exist, and its edits after', async () => {
    const file = at('project', '.agents', 'mcp_config.json');
    start([file]);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{}');
    await expect.poll(() => events, WAIT).toEqual([file]);
    fs.writeFileSync(file, '{"mcpServers":{}}');
    await expect.poll(() => events, WAIT).toEqual([file, file]);
  });

  it('hears its folder deleted and made again', async () => {
    const file = at('project', '.mcp.json');
    fs.mkdirSync(at('project'));
    fs.writeFileSync(file, '{}');
    start([file]);
    fs.rmSync(at('project'), { recursive: true });
    await expect.poll(() => events, WAIT).toEqual([file]);
    fs.mkdirSync(at('project'));
    fs.writeFileSync(file, '{}');
    await expect.poll(() => events, WAIT).toEqual([file, file]);
    fs.writeFileSync(file, '{"x":1}');
    await expect.poll(() => events, WAIT).toEqual([file, file, file]);
  });

  it('follows a symlinked file into its target’s folder', async () => {
    const target = at('dotfiles', 'settings.toml');
    const link = at('home', 'settings.toml');
    fs.mkdirSync(at('dotfiles'));
    fs.mkdirSync(at('home'));
    fs.writeFileSync(target, 'a');
    fs.symlinkSync(target, link);
    start([link]);
    fs.writeFileSync(target, 'b');
    await expect.poll(() => events, WAIT).toEqual([link]);
    replaceByRename(target, 'c');
    await expect.poll(() => events, WAIT).toEqual([link, link]);
  });

  it('follows a re-pointed symlink to its new target, and leaves the old one', async () => {
    const old = at('dotfiles', 'old.toml');
    const next = at('dotfiles', 'new.toml');
    const link = at('settings.toml');
    fs.mkdirSync(at('dotfiles'));
    fs.writeFileSync(old, 'old');
    fs.writeFileSync(next, 'new');
    fs.symlinkSync(old, link);
    start([link, at('dotfiles', 'sentinel')]);
    fs.symlinkSync(next, at('link.tmp'));
    fs.renameSync(at('link.tmp'), link);
    await expect.poll(() => events, WAIT).toEqual([link]);
    fs.writeFileSync(old, 'old, edited');
    await settle(at('dotfiles', 'sentinel'));
    expect(changesOf(link)).toEqual([link]);
    fs.writeFileSync(next, 'new, edited');
    await expect.poll(() => changesOf(link), WAIT).toEqual([link, link]);
  });

  it('hears a burst of writes as one change', async () => {
    fs.writeFileSync(at('settings.toml'), 'start');
    start([at('settings.toml'), at('sentinel')]);
    for (let i = 0; i < 20; i++) fs.writeFileSync(at('settings.toml'), `write ${i}`);
    await settle();
    expect(changesOf(at('settings.toml'))).toEqual([at('settings.toml')]);
  });

  it('hears nothing when the same content is written again, in place or by rename', async () => {
    fs.writeFileSync(at('settings.toml'), 'same');
    start([at('settings.toml'), at('sentinel')]);
    fs.writeFileSync(at('settings.toml'), 'same');
    replaceByRename(at('settings.toml'), 'same');
    await settle();
    expect(changesOf(at('settings.toml'))).toEqual([]);
  });

  it('hears nothing when a file is deleted and written back as it was within the debounce', async () => {
    fs.writeFileSync(at('settings.toml'), 'same');
    start([at('settings.toml'), at('sentinel')]);
    fs.rmSync(at('settings.toml'));
    fs.writeFileSync(at('settings.toml'), 'same');
    await settle();
    expect(changesOf(at('settings.toml'))).toEqual([]);
  });

  it('hears nothing of an unwatched file, nor of a file next to a watched one', async () => {
    start([at('a'), at('b'), at('sentinel')]);
    watcher.unwatch(at('a'));
    fs.writeFileSync(at('a'), 'a');
    fs.writeFileSync(at('c'), 'c');
    await settle();
    fs.writeFileSync(at('b'), 'b');
    await expect.poll(() => events.filter((e) => e !== at('sentinel')), WAIT).toEqual([at('b')]);
  });

  it('leaves no watcher and no timer behind after close, so the process can exit', async () => {
    const clock = countingClock();
    fs.mkdirSync(at('dotfiles'));
    fs.writeFileSync(at('dotfiles', 'settings.toml'), 'a');
    fs.symlinkSync(at('dotfiles', 'settings.toml'), at('settings.toml'));
    start([at('settings.toml'), at('missing', 'folder', '.mcp.json'), at('a')], { clock, pollMs: 60_000 });
    expect(fsWatchers()).toBeGreaterThan(0);
    fs.writeFileSync(at('a'), 'a');
    // The poll's timer and a's debounce timer.
    await expect.poll(() => clock.live(), WAIT).toBe(2);
    watcher.close();
    expect(clock.live()).toBe(0);
    await expect.poll(() => fsWatchers(), WAIT).toBe(0);
    expect(() => watcher.watch(at('a'))).toThrow(expect.objectContaining({ code: 'FAILED_PRECONDITION' }));
    expect(events).toEqual([]);
  });
});

/** fs.watch handles still open in this process (libuv closes them on the next turn). */
function fsWatchers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'FSEventWrap').length;
}

/** The system clock, counting timers that have neither fired nor been cancelled. */
function countingClock(): Clock & { live(): number } {
  let live = 0;
  return {
    now: () => systemClock.now(),
    setTimeout(fn, ms) {
      live++;
      let done = false;
      const finish = () => {
        if (!done) live--;
        done = true;
      };
      const timer = systemClock.setTimeout(() => {
        finish();
        fn();
      }, ms);
      return {
        cancel: () => {
          finish();
          timer.cancel();
        },
      };
    },
    live: () => live,
  };
}
