import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redactor } from '@blitz/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Logger, type LoggerOptions } from './logger.js';

const NOON = new Date(2026, 9, 14, 12, 0, 1).getTime();

let home: string;
let open: Logger[];
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-logger-'));
  open = [];
});
afterEach(() => {
  for (const logger of open) logger.close();
  fs.rmSync(home, { recursive: true, force: true });
});

function logger(options: Partial<LoggerOptions> = {}): { log: Logger; stderr: string[] } {
  const stderr: string[] = [];
  const log = new Logger({
    dir: path.join(home, 'logs'),
    clock: { now: () => NOON },
    stderr: { write: (text: string) => stderr.push(text) },
    ...options,
  });
  open.push(log);
  return { log, stderr };
}

function entries(file = path.join(home, 'logs', 'blitz.log')): Record<string, unknown>[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('Logger', () => {
  it('appends one JSON line per entry under $BLITZ_HOME/logs', () => {
    const { log } = logger();
    log.info('daemon started', { port: 4123 });
    log.warn('settings problem', { file: 'settings.toml', line: 3 });
    log.error('server failed', { server: 'github', err: new Error('exited with code 1') });
    expect(log.file).toBe(path.join(home, 'logs', 'blitz.log'));
    const [started, problem, failed] = entries();
    expect(started).toEqual({ time: new Date(NOON).toISOString(), level: 'info', msg: 'daemon started', port: 4123 });
    expect(problem).toMatchObject({ level: 'warn', msg: 'settings problem', file: 'settings.toml', line: 3 });
    expect(failed).toMatchObject({ level: 'error', server: 'github', err: { name: 'Error', message: 'exited with code 1' } });
  });

  it('adds a child’s fields to every entry, and the call’s fields over them', () => {
    const { log } = logger();
    const workspace = log.child({ workspace: '/p', server: 'a' });
    workspace.child({ server: 'b' }).info('listed', { tools: 2 });
    workspace.info('called', { server: 'c' });
    log.info('root');
    expect(entries()).toMatchObject([
      { msg: 'listed', workspace: '/p', server: 'b', tools: 2 },
      { msg: 'called', workspace: '/p', server: 'c' },
      { msg: 'root' },
    ]);
    expect(entries()[2]).not.toHaveProperty('workspace');
  });

  it('mirrors each entry to stderr in a short form when asked', () => {
    const { log, stderr } = logger({ mirror: true });
    log.warn('server paused', { server: 'github', failures: 3 });
    expect(stderr).toEqual(['12:00:01 warn  server paused server=github failures=3\n']);
    const quiet = logger();
    quiet.log.info('nothing on stderr');
    expect(quiet.stderr).toEqual([]);
  });

  it('never throws when the log cannot be written, and says so once on stderr', () => {
    fs.writeFileSync(path.join(home, 'logs'), 'a file where the folder should be');
    const { log, stderr } = logger({ mirror: true });
    expect(() => {
      log.error('first');
      log.error('second');
    }).not.toThrow();
    expect(stderr.filter((line) => line.startsWith('blitz: cannot write the log'))).toHaveLength(1);
    expect(stderr.filter((line) => line.includes('error first') || line.includes('error second'))).toHaveLength(2);
  });
});

describe('Logger redaction (MCP-42)', () => {
  const header = 'Bearer hdr.Tok-0123456789';
  const headerToken = 'hdr.Tok-0123456789';
  const envValue = 'ghp_envSecret0123456789';
  const unknownBearer = 'xyzUnknownBearer42';
  const planted = [header, headerToken, envValue, unknownBearer];

  function logEverywhere(log: Logger): void {
    log.info(`spawn github with GITHUB_TOKEN=${envValue}`);
    log.info('request', { headers: { Authorization: header, 'X-Other': headerToken }, env: { GITHUB_TOKEN: envValue } });
    log.warn(`retry with Bearer ${unknownBearer}`, { line: `Authorization: Bearer ${unknownBearer}` });
    log.error('call failed', { err: new Error(`server said: token ${headerToken} rejected`), args: ['--token', envValue] });
    log.child({ env: envValue, note: `sent ${headerToken}` }).info('child entry');
    log.info('nested', { deep: { deeper: [{ value: `x ${envValue} y` }] } });
  }

  it('never writes a header value, its token alone, an env value or an unknown Bearer token', () => {
    const { log, stderr } = logger({ mirror: true });
    log.addSecrets([header, envValue]);
    logEverywhere(log);
    const text = fs.readFileSync(path.join(home, 'logs', 'blitz.log'), 'utf8') + stderr.join('');
    for (const secret of planted) expect(text).not.toContain(secret);
    for (const line of text.split('\n').filter((l) => l.startsWith('{'))) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(entries()).toHaveLength(6);
    expect(text).toContain('spawn github with GITHUB_TOKEN=***');
  });

  it('masks secrets added through a child, and through a shared redactor, for every logger', () => {
    const redactor = new Redactor();
    const { log } = logger({ redactor });
    log.child({ server: 'github' }).addSecrets([header]);
    redactor.add(envValue);
    logEverywhere(log);
    const text = fs.readFileSync(path.join(home, 'logs', 'blitz.log'), 'utf8');
    for (const secret of planted) expect(text).not.toContain(secret);
  });

  it('keeps secrets out of rotated files too', () => {
    const { log } = logger({ maxBytes: 600 });
    log.addSecrets([header, envValue]);
    for (let i = 0; i < 10; i++) logEverywhere(log);
    log.close();
    const files = fs.readdirSync(path.join(home, 'logs')).sort();
    expect(files).toEqual(['blitz.log', 'blitz.log.1', 'blitz.log.2', 'blitz.log.3']);
    for (const name of files) {
      const text = fs.readFileSync(path.join(home, 'logs', name), 'utf8');
      for (const secret of planted) expect(text).not.toContain(secret);
      expect(entries(path.join(home, 'logs', name)).length).toBeGreaterThan(0);
    }
    expect(entries().at(-1)).toMatchObject({ msg: 'nested' });
  });
});
