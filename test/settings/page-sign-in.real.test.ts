import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthFixture } from '../fixtures/oauth/oauth-server.mjs';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';
import { axeViolations, CHROMIUM, CHROMIUM_FLAGS, NO_BROWSER, settingsAddress } from '../support/settings-browser.js';

/** The page reads the daemon every 2 s; a loaded 2-core machine gets room beyond that. */
const SLOW = { timeout: 20_000 };

let fixture: OAuthFixture;
let home: string;
let workspace: string;
let daemon: RunningDaemon;
let hub: Client;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let base: string;

function storedSignIn(): string | undefined {
  const file = path.join(home, 'state', 'secrets.json');
  if (!fs.existsSync(file)) return undefined;
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { secrets: Record<string, string> }).secrets['mcp-oauth-remote'];
}

describe.skipIf(NO_BROWSER)("the settings page's Sign in and Sign out (issue 29.7)", () => {
  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    fixture = await startOAuthServer({ accessTtlSeconds: 3600 });
    home = tempDir('blitz-page-oauth-');
    workspace = tempDir('blitz-page-oauth-ws-');
    writeSettings(home, `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "remote"\nurl = "${fixture.url}"\nauto_approve = true\n`);
    daemon = await startDaemonProcess(home);
    base = `http://127.0.0.1:${daemon.state.port}`;
    // A connected client keeps a workspace open, so the server is tried and found to need a sign-in.
    hub = await connectHub(daemon.state, { workspace });
    await hub.listTools();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
    await daemon?.stop();
    await fixture?.close();
    await assertNoOrphans();
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it("opens at the server from the tray's address, signs in through the browser, and signs out", async () => {
    // The tray's "Sign in to remote…" opens the one-time address with the server's view in its #fragment.
    await page.goto(`${await settingsAddress(home)}#/server/remote`);
    await page.waitForURL(`${base}/settings/#/server/remote`);
    await expect.poll(() => page.getByTestId('detail-state').textContent(), SLOW).toBe('needs sign-in');
    expect(await page.getByTestId('detail-cause').textContent()).toBe('it needs you to sign in');
    await expect.poll(() => page.getByTestId('sign-in-state').textContent(), SLOW).toBe('Not signed in to remote.');
    expect(await page.getByRole('button', { name: 'Sign out of remote' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // The authorization page opens in a new tab; the fixture approves at once and sends it to the daemon's listener.
    const [tab] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Sign in to remote' }).click()]);
    await tab.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/, SLOW);
    await expect.poll(() => tab.locator('body').textContent(), SLOW).toContain('Blitz received the sign-in for MCP server remote');
    await tab.close();

    await expect.poll(() => page.getByTestId('sign-in-state').textContent(), SLOW).toBe('Signed in to remote (OAuth).');
    await expect.poll(() => page.getByTestId('detail-state').textContent(), SLOW).toBe('connected');
    expect(await page.getByTestId('detail-cause').count()).toBe(0);
    expect(storedSignIn()).toBeDefined();
    // The hub's client uses the new sign-in: a call reaches the protected server.
    await expect.poll(async () => (await hub.listTools()).tools.map((t) => t.name), SLOW).toContain('whoami');
    expect(textOf(await hub.callTool({ name: 'whoami', arguments: {} }))).not.toBe('');
    // The browser went through the fixture's authorize endpoint with PKCE, as `blitz mcp login` does.
    expect(fixture.log().map((e: { kind: string }) => e.kind)).toEqual(expect.arrayContaining(['register', 'authorize', 'token']));

    await page.getByRole('button', { name: 'Sign out of remote' }).click();
    await expect.poll(() => page.getByTestId('sign-in-state').textContent(), SLOW).toBe('Not signed in to remote.');
    expect(storedSignIn()).toBeUndefined();
    await expect.poll(() => page.getByTestId('detail-state').textContent(), SLOW).toBe('needs sign-in');
    expect(await axeViolations(page)).toEqual([]);
  });
});
