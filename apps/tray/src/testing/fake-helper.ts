/**
 * Test support: a fake systray2 helper. systray2 runs `./traybin/<helper>` from the working
 * directory when there is one, so a test puts this small Node script there: it records
 * every JSON line it is sent and writes back the clicks the test asks for.
 */
import fs from 'node:fs';
import path from 'node:path';
import { helperName } from '../systray/helper-binary.js';

export type FakeHelperMode = 'normal' | 'exit-at-start' | 'crash-after-ready' | 'never-ready';

export interface HelperItem {
  __id: number;
  title: string;
  enabled: boolean;
  hidden?: boolean;
  checked?: boolean;
  items?: HelperItem[];
}

function script(mode: FakeHelperMode): string {
  return `#!${process.execPath}
// A fake systray2 helper (see fake-helper.ts). CommonJS: it has no file extension.
const fs = require('node:fs');
const path = require('node:path');
const sent = path.join(__dirname, 'sent.jsonl');
const clicks = path.join(__dirname, 'clicks.jsonl');
if (${JSON.stringify(mode)} === 'exit-at-start') {
  process.stderr.write('Gtk-WARNING: cannot open display: \\n');
  process.exit(1);
}
if (${JSON.stringify(mode)} !== 'never-ready') process.stdout.write('{"type":"ready"}\\n');
if (${JSON.stringify(mode)} === 'crash-after-ready') setTimeout(() => process.exit(3), 300);
let buffer = '';
process.stdin.on('data', (d) => {
  buffer += d.toString();
  let i;
  while ((i = buffer.indexOf('\\n')) >= 0) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    fs.appendFileSync(sent, line + '\\n');
    if (JSON.parse(line).type === 'exit') process.exit(0);
  }
});
// Like the real helper: its parent gone, it goes too.
process.stdin.on('end', () => process.exit(0));
// Clicks asked of an earlier helper (before a restart) are not replayed.
const pending = () => { try { return fs.readFileSync(clicks, 'utf8').split('\\n').filter(Boolean).length; } catch { return 0; } };
let done = pending();
setInterval(() => {
  let text = '';
  try { text = fs.readFileSync(clicks, 'utf8'); } catch { return; }
  const lines = text.split('\\n').filter(Boolean);
  for (const line of lines.slice(done)) process.stdout.write(line + '\\n');
  done = lines.length;
}, 25);
`;
}

export class FakeHelper {
  readonly dir: string;

  /** Installs the fake as `<cwd>/traybin/<helper>`. */
  constructor(cwd: string, mode: FakeHelperMode = 'normal') {
    const name = helperName(process.platform);
    if (!name) throw new Error(`no systray2 helper on ${process.platform}`);
    this.dir = path.join(cwd, 'traybin');
    fs.mkdirSync(this.dir, { recursive: true });
    fs.writeFileSync(path.join(this.dir, name), script(mode), { mode: 0o755 });
  }

  /** Every JSON line the helper was sent, in order. */
  sent(): Record<string, unknown>[] {
    try {
      return fs
        .readFileSync(path.join(this.dir, 'sent.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    } catch {
      return [];
    }
  }

  /** The items as the helper shows them now: the first menu, with each update-item applied. */
  items(): Map<number, HelperItem> {
    const items = new Map<number, HelperItem>();
    const add = (item: HelperItem) => {
      items.set(item.__id, { ...item, items: undefined });
      for (const child of item.items ?? []) add(child);
    };
    for (const line of this.sent()) {
      if (line.items) for (const item of line.items as HelperItem[]) add(item);
      if (line.type === 'update-item') {
        const item = line.item as HelperItem;
        items.set(item.__id, { ...items.get(item.__id), ...item, items: undefined });
      }
    }
    return items;
  }

  /** The titles shown (hidden items and separators left out), in id order. */
  titles(): string[] {
    return [...this.items().values()]
      .filter((i) => !i.hidden && i.title !== '<SEPARATOR>')
      .sort((a, b) => a.__id - b.__id)
      .map((i) => i.title);
  }

  /** The id of the shown item whose title matches. */
  idOf(title: string | RegExp): number | undefined {
    const match = (t: string) => (typeof title === 'string' ? t === title : title.test(t));
    return [...this.items().values()].find((i) => !i.hidden && match(i.title))?.__id;
  }

  /** Makes the helper report a click on the item, as the real one does. */
  click(id: number): void {
    // An id looked up before its item was shown would be a click the tray ignores, and a test that hangs.
    if (!Number.isInteger(id)) throw new Error(`no item to click (id ${String(id)}): wait for it to be shown`);
    fs.appendFileSync(path.join(this.dir, 'clicks.jsonl'), `${JSON.stringify({ type: 'clicked', item: {}, seq_id: 0, __id: id })}\n`);
  }
}

/**
 * Polls until `check` returns something other than undefined or false; on a timeout the
 * error carries `detail()` (say, the tray's output), which is what one needs to see then.
 */
export async function waitFor<T>(check: () => T | undefined | false, what: string, timeoutMs = 15_000, detail?: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${detail ? `:\n${detail()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
