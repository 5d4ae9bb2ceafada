/**
 * Every `blitz …` line in README.md's and docs/*.md's shell code blocks, run as written —
 * in order, one BLITZ_HOME (and HOME) per page, the way a reader types them — through the
 * built CLI. A command passes when it exits as expected and prints no stack trace.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readDaemonState } from '@blitz/client';
import { afterEach, describe, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { REPO_ROOT, runBlitz, tempDir } from '../support/blitz-cli.js';

const PAGES = [
  'README.md',
  ...fs
    .readdirSync(path.join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Lines that cannot run here as written, each with why. Anything else in a code block runs. */
const SKIPPED: Array<[RegExp, string]> = [
  [
    /^blitz mcp login /,
    'an OAuth sign-in to a real remote server (mcp.example.com) in a browser; test/oauth signs in to a local authorization server instead',
  ],
  [/^blitz tray$/, 'needs a desktop and runs until quit; test/tray runs it with a fake and a real helper'],
  [/^blitz daemon$/, 'runs in the foreground until Ctrl-C; blitz daemon start runs the same daemon in the background here'],
  [
    /^blitz doctor --online$/,
    'connects to every configured server, and the README configures server-github through npx, which downloads it; test/cli/doctor.real.test.ts runs --online against local servers',
  ],
  [/^blitz connect \[/, 'a synopsis, not a command; test/hub/connect.real.test.ts runs blitz connect'],
  [/\b(NAME|DIR)\b|\[--/, 'a synopsis with placeholders, not a command'],
];

/** Exit codes other than 0 that a page promises. */
const EXPECTED_EXIT: Array<[RegExp, number]> = [];

/** What a page's commands assume is already there, as the page itself says above them. */
const SETUP: Record<string, string[][]> = {
  // "blitz mcp login docs" signs in to the docs server the page configures.
  'docs/oauth.md': [['mcp', 'add', 'docs', 'https://docs.example.com/mcp']],
};

/** The `blitz …` lines of a page's sh/bash code blocks, `a && b` split into two. */
export function blitzLines(markdown: string): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const open = /^```(\w*)/.exec(line);
    if (open) {
      fence = fence === undefined ? open[1] || 'text' : undefined;
      continue;
    }
    if (fence !== 'sh' && fence !== 'bash') continue;
    const command = stripComment(line).trim();
    for (const part of command.split(/\s+&&\s+/)) if (part.startsWith('blitz ') || part === 'blitz') out.push(part);
  }
  return out;
}

/** The line without a trailing `# comment` (a `#` outside quotes, after a space). */
function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

/** Shell words as sh would pass them: quotes removed, `~` at a word's start is HOME, `$PWD` the folder. */
export function shellWords(command: string, env: { HOME: string; PWD: string }): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  let i = 0;
  const take = (text: string, length = text.length) => {
    word = (word ?? '') + text;
    i += length;
  };
  while (i < command.length) {
    const c = command[i]!;
    const next = command[i + 1];
    if (quote) {
      if (c === quote) {
        quote = undefined;
        i += 1;
      } else if (quote === '"' && command.startsWith('$PWD', i)) take(env.PWD, 4);
      else take(c);
    } else if (c === "'" || c === '"') {
      quote = c;
      take('', 1);
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      i += 1;
    } else if (c === '~' && word === undefined && (next === undefined || next === '/' || /\s/.test(next))) take(env.HOME, 1);
    else if (command.startsWith('$PWD', i)) take(env.PWD, 4);
    else take(c);
  }
  if (word !== undefined) words.push(word);
  return words;
}

let home: string | undefined;

afterEach(async () => {
  if (home && readDaemonState(path.join(home, 'blitz')))
    await runBlitz(['daemon', 'stop'], { home: path.join(home, 'blitz'), env: { HOME: home } });
  await assertNoOrphans({ timeoutMs: 20_000 });
  if (home) fs.rmSync(home, { recursive: true, force: true });
  home = undefined;
});

describe('every example in the README and docs/ runs as written', () => {
  it('finds the examples (the extraction itself)', () => {
    expect(blitzLines('```sh\nblitz mcp list   # all\nblitz a && blitz b\nnpm ci\n```\n```toml\nblitz = 1\n```\n')).toEqual([
      'blitz mcp list',
      'blitz a',
      'blitz b',
    ]);
    expect(shellWords(`blitz mcp add x --env 'T=\${T}' -- npx ~/src "a b"`, { HOME: '/h', PWD: '/p' })).toEqual([
      'blitz',
      'mcp',
      'add',
      'x',
      '--env',
      'T=${T}',
      '--',
      'npx',
      '/h/src',
      'a b',
    ]);
    expect(PAGES).toContain('docs/settings.md');
  });

  it.each(PAGES)(
    '%s',
    async (page) => {
      const lines = blitzLines(fs.readFileSync(path.join(REPO_ROOT, page), 'utf8'));
      home = tempDir('blitz-docs-');
      const blitzHome = path.join(home, 'blitz');
      const cwd = path.join(home, 'project');
      fs.mkdirSync(cwd);
      // Port 0: another daemon on this machine may hold the default port.
      fs.mkdirSync(blitzHome);
      fs.writeFileSync(path.join(blitzHome, 'settings.toml'), '# written by the docs test\n[daemon]\nport = 0\n');
      const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
      for (const args of SETUP[page] ?? []) expect((await runBlitz(args, { home: blitzHome, cwd, env })).code).toBe(0);
      const ran: string[] = [];
      for (const line of lines) {
        if (SKIPPED.some(([pattern]) => pattern.test(line))) continue;
        const [, ...args] = shellWords(line, { HOME: home, PWD: cwd });
        const result = await runBlitz(args, { home: blitzHome, cwd, env });
        const expected = EXPECTED_EXIT.find(([pattern]) => pattern.test(line))?.[1] ?? 0;
        const said = `${page}: ${line}\n${result.stdout}${result.stderr}`;
        expect(result.code, said).toBe(expected);
        expect(result.stderr, said).not.toMatch(/\n\s+at \S+ \(/);
        ran.push(line);
      }
      // A page whose every example were skipped would pass vacuously.
      if (lines.length > 0) expect(ran.length, `${page}: every example skipped`).toBeGreaterThan(0);
      // Each example is a `blitz` process of its own, one after another: the README's 40-odd took 25 s
      // alone here and over 60 s beside two other real files on 2 cores.
    },
    180_000,
  );
});
