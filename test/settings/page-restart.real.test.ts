import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { axeViolations, CHROMIUM, CHROMIUM_FLAGS, NO_BROWSER, settingsAddress } from '../support/settings-browser.js';

/** The page reads the daemon every 2 s; a loaded 2-core machine gets room beyond that. */
const SLOW = { timeout: 15_000 };

let home: string;
let settingsFile: string;
let daemon: RunningDaemon | undefined;
let browser: Browser;
let page: Page;
let base: string;

/** A port free now: the daemon comes back on the same one, as it does with its default port. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(NO_BROWSER)('the settings page across a restart of the daemon', () => {
  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    home = tempDir('blitz-page-restart-');
    settingsFile = path.join(home, 'settings.toml');
    const { command, args } = fixtureCommand('env-dump');
    writeSettings(
      home,
      [
        '[daemon]',
        `port = ${await freePort()}`,
        '',
        '[[mcp.servers]]',
        'name = "plain"',
        `command = ${JSON.stringify(command)}`,
        `args = ${JSON.stringify(args)}`,
        'sandbox = false',
        '',
      ].join('\n'),
    );
    daemon = await startDaemonProcess(home);
    base = `http://127.0.0.1:${daemon.state.port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    page = await (await browser.newContext({ viewport: { width: 1000, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await assertNoOrphans();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('says the daemon is down, keeping what it last said greyed with nothing to press, and goes on in the same session once it is back', async () => {
    await page.goto(await settingsAddress(home));
    await page.waitForURL(`${base}/settings/`);
    const toggle = page.getByRole('switch', { name: 'plain on' });
    await expect.poll(() => page.locator('a.server-name').allTextContents(), SLOW).toEqual(['plain']);
    expect(await toggle.isDisabled()).toBe(false);

    await daemon!.stop();
    daemon = undefined;
    const down = page.getByTestId('down');
    await expect.poll(() => down.textContent(), SLOW).toContain('The Blitz daemon is not running');
    expect(await down.textContent()).toContain('blitz daemon start');
    expect(await page.locator('main').getAttribute('class')).toBe('stale');
    expect(await page.locator('a.server-name').allTextContents()).toEqual(['plain']);
    expect(await toggle.isDisabled()).toBe(true);
    expect(await page.getByRole('link', { name: 'Add server' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Remove plain' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    daemon = await startDaemonProcess(home);
    expect(daemon.state.port).toBe(Number(new URL(base).port));
    await expect.poll(() => down.count(), SLOW).toBe(0);
    await expect.poll(() => toggle.isDisabled(), SLOW).toBe(false);
    // A write, with the CSRF token the page got before the restart.
    await toggle.uncheck();
    await expect.poll(() => fs.readFileSync(settingsFile, 'utf8'), SLOW).toMatch(/name = "plain"[\s\S]*disabled = true/);
    // And a reload is the page again, not "no session".
    await page.reload();
    await expect.poll(() => page.locator('a.server-name').allTextContents(), SLOW).toEqual(['plain']);
    expect(fs.statSync(path.join(home, 'state', 'page-sessions.json')).mode & 0o777).toBe(0o600);
  });

  it('without a session says how to open the settings, styled as the page is (dark mode too) and with its icon', async () => {
    daemon ??= await startDaemonProcess(home);
    const other = await browser.newContext();
    try {
      const stranger = await other.newPage();
      const answer = await stranger.goto(`${base}/settings/`);
      expect(answer!.status()).toBe(401);
      expect(await stranger.locator('body').textContent()).toContain('blitz settings');
      for (const scheme of ['light', 'dark'] as const) {
        await stranger.emulateMedia({ colorScheme: scheme });
        // The test's own types have no DOM: the browser's globals are read by name.
        const background = await stranger.evaluate(() => {
          const g = globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string }; document: { body: unknown } };
          return g.getComputedStyle(g.document.body).backgroundColor;
        });
        expect(background).toBe(scheme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(13, 17, 23)');
      }
      const icon = await stranger.evaluate(
        () =>
          (globalThis as unknown as { document: { querySelector(s: string): { href: string } | null } }).document.querySelector(
            'link[rel=icon]',
          )?.href,
      );
      expect((await fetch(icon!)).status).toBe(200);
      expect(await axeViolations(stranger)).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
