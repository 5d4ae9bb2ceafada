import fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';
import { axeViolations, CHROMIUM, CHROMIUM_FLAGS, NO_BROWSER, settingsAddress } from '../support/settings-browser.js';

/** The page reads the daemon every 2 s (its logs view every 1 s); a loaded 2-core machine gets room beyond that. */
const SLOW = { timeout: 15_000 };
const SECRET = 'tok-secret-8d2c61';

let home: string;
let workspace: string;
let daemon: RunningDaemon;
let hub: Client;
let browser: Browser;
let page: Page;
let base: string;

function entry(name: string, fixture: Parameters<typeof fixtureCommand>[0], extra: string[] = []): string[] {
  const { command, args } = fixtureCommand(fixture);
  return [
    '[[mcp.servers]]',
    `name = "${name}"`,
    `command = ${JSON.stringify(command)}`,
    `args = ${JSON.stringify(args)}`,
    'sandbox = false',
    ...extra,
    '',
  ];
}

const names = () => page.locator('a.server-name').allTextContents();

describe.skipIf(NO_BROWSER)('the settings page: search and filter, and a live logs view (issue 29.9)', () => {
  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    home = tempDir('blitz-page-logs-');
    workspace = tempDir('blitz-page-logs-ws-');
    writeSettings(
      home,
      [
        '[daemon]',
        'port = 0',
        '',
        ...entry('chatty', 'stderr-echo', ['auto_approve = true', `env = { API_TOKEN = "${SECRET}" }`]),
        ...entry('dump', 'env-dump', ['prefix = "dump"']),
        ...entry('broken', 'exit-at-start'),
        ...entry('spare', 'env-dump', ['disabled = true']),
      ].join('\n'),
    );
    daemon = await startDaemonProcess(home);
    base = `http://127.0.0.1:${daemon.state.port}`;
    hub = await connectHub(daemon.state, { workspace });
    await hub.listTools();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    page = await (await browser.newContext({ viewport: { width: 1000, height: 900 } })).newPage();
    await page.goto(await settingsAddress(home));
    await page.waitForURL(`${base}/settings/`);
  });

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
    await daemon?.stop();
    await assertNoOrphans();
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it('searches servers by name, command and the names of their tools, and filters them by state', async () => {
    await expect.poll(names, SLOW).toEqual(['chatty', 'dump', 'broken', 'spare']);
    await expect.poll(() => page.locator('li.server .state').first().textContent(), SLOW).toBe('connected');
    const search = page.getByRole('searchbox', { name: 'Search servers and tools' });
    // A tool's name finds its server, and the row says which tools matched.
    await search.fill('say');
    await expect.poll(names).toEqual(['chatty']);
    expect(await page.getByTestId('matched-tools').textContent()).toBe('Matching tools: say');
    expect(await page.getByTestId('shown-count').textContent()).toBe('1 of 4 servers shown');
    await search.fill('ENV-DUMP');
    await expect.poll(names).toEqual(['dump', 'spare']);
    await search.fill('nothing-is-called-this');
    await expect.poll(names).toEqual([]);
    expect(await page.getByText('No server matches.').count()).toBe(1);
    await search.fill('');
    const show = page.getByRole('combobox', { name: 'Show' });
    await show.selectOption('attention');
    await expect.poll(names).toEqual(['broken']);
    await show.selectOption('off');
    await expect.poll(names).toEqual(['spare']);
    await show.selectOption('on');
    await expect.poll(names).toEqual(['chatty', 'dump', 'broken']);
    expect(await axeViolations(page)).toEqual([]);
    await show.selectOption('all');
    await expect.poll(names).toEqual(['chatty', 'dump', 'broken', 'spare']);
  });

  it("shows a server's stderr and the daemon's lines about it as they come, redacted, with a filter", async () => {
    await page.goto(`${base}/settings/#/server/chatty`);
    await page.getByRole('link', { name: 'Logs' }).click();
    await page.waitForURL(`${base}/settings/#/logs/chatty`);
    const log = page.getByTestId('log-lines');
    await expect.poll(() => log.textContent(), SLOW).toContain('stderr-echo: ready');
    expect(await log.textContent()).toMatch(/daemon\s+MCP server state state=connected/);
    // No reload: the line of a call made now appears in the same page.
    await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 42));
    expect(textOf(await hub.callTool({ name: 'say', arguments: { text: 'hello from the test' } }))).toBe('hello from the test');
    await expect.poll(() => log.textContent(), SLOW).toContain('said: hello from the test');
    expect(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker)).toBe(42);
    // A secret the server prints is masked, as in the daemon's log.
    await hub.callTool({ name: 'say', arguments: { text: `the token is ${SECRET}` } });
    await expect.poll(() => log.textContent(), SLOW).toContain('said: the token is ***');
    expect(await page.content()).not.toContain(SECRET);

    await page.getByRole('searchbox', { name: 'Filter lines' }).fill('hello');
    await expect.poll(() => log.locator('li').allTextContents()).toEqual([expect.stringContaining('said: hello from the test')]);
    await page.getByRole('searchbox', { name: 'Filter lines' }).fill('');
    await page.getByRole('combobox', { name: 'Show' }).selectOption('daemon');
    await expect.poll(async () => (await log.locator('li .log-source').allTextContents()).every((s) => s === 'daemon')).toBe(true);
    expect(await log.locator('li').count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
  });
});
