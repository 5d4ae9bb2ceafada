import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { readPageFile } from './page-files.js';
import { CODE_TTL_MS, PageSessions } from './page-sessions.js';
import { PAGE_CSP, servePage } from './serve-page.js';

const clock = new FakeClock();
const sessions = new PageSessions(clock);
let dir: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-page-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>page</title>');
  fs.writeFileSync(path.join(dir, 'app.js'), 'export {};');
  fs.writeFileSync(path.join(dir, 'app.css'), 'body {}');
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg/>');
  fs.writeFileSync(path.join(dir, '.hidden.js'), 'secret');
  fs.writeFileSync(path.join(path.dirname(dir), 'outside.js'), 'outside');
  server = http.createServer((req, res) => servePage(req, res, new URL(req.url!, base), sessions, dir));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, cookie?: string) => fetch(`${base}${url}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

async function signIn(): Promise<string> {
  const response = await get(`/settings/?code=${sessions.issueCode().code}`);
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe('/settings/');
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

describe('servePage', () => {
  it('trades a code for a cookie and sends the browser to the clean address; the page then comes with its CSP', async () => {
    const cookie = await signIn();
    const page = await get('/settings/', cookie);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toContain('<title>page</title>');
    expect((await get('/settings/app.js', cookie)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('answers a used, expired or wrong code, and no cookie, with how to open the settings and nothing else', async () => {
    const { code } = sessions.issueCode();
    await get(`/settings/?code=${code}`);
    const stale = sessions.issueCode().code;
    clock.advance(CODE_TTL_MS);
    for (const [url, status] of [
      [`/settings/?code=${code}`, 403],
      [`/settings/?code=${stale}`, 403],
      ['/settings/?code=wrong', 403],
      ['/settings/', 401],
      ['/settings/app.js', 401],
    ] as const) {
      const response = await get(url);
      expect(response.status, url).toBe(status);
      expect(response.headers.get('set-cookie'), url).toBeNull();
      const text = await response.text();
      expect(text, url).toContain('blitz settings');
      expect(text, url).not.toContain('<script');
      // Styled as the page is, dark mode and icon included.
      expect(text, url).toContain('<link rel="stylesheet" href="/settings/app.css">');
      expect(text, url).toContain('<meta name="color-scheme" content="light dark">');
      expect(text, url).toContain('href="/settings/favicon.svg"');
    }
    // Which is why the stylesheet and the icon, and nothing else, come without a session.
    expect((await get('/settings/app.css')).status).toBe(200);
    expect((await get('/settings/favicon.svg')).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('serves only the page’s own files', async () => {
    const cookie = await signIn();
    for (const url of ['/settings/.hidden.js', '/settings/nope.js', '/settings/index.txt', '/settings/app.js/x.js']) {
      expect((await get(url, cookie)).status, url).toBe(404);
    }
    expect((await fetch(`${base}/settings/`, { method: 'POST', headers: { cookie } })).status).toBe(405);
    // URLs arrive normalized; the file lookup refuses a way out all the same.
    expect(readPageFile(dir, '../outside.js').kind).toBe('missing');
    expect(readPageFile(dir, 'a/../../outside.js').kind).toBe('missing');
    expect(readPageFile(path.join(dir, 'none'), '').kind).toBe('notBuilt');
  });
});
