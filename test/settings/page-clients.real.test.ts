import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { BLITZ_BIN, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { axeViolations, CHROMIUM, CHROMIUM_FLAGS, NO_BROWSER, settingsAddress } from '../support/settings-browser.js';

let home: string;
let daemon: RunningDaemon;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let base: string;
let fakeBlitz: string;
let workspace: string;

describe.skipIf(NO_BROWSER)("the settings page's Connect a client (issue 29.9)", () => {
  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    home = tempDir('blitz-page-clients-');
    // Two servers for the context receipt, every tool behind search_tools (a client's own setting aside).
    const server = (name: string, fixture: Parameters<typeof fixtureCommand>[0], extra: string) => {
      const { command, args } = fixtureCommand(fixture);
      return `[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\n${extra}`;
    };
    workspace = tempDir('blitz-page-clients-ws-');
    writeSettings(
      home,
      `[daemon]\nport = 0\n\n[hub]\ndeferred = "always"\n\n${server('env', 'env-dump', '')}${server('px', 'protocol', 'prefix = "px"\n')}`,
    );
    // A `blitz` on the daemon's PATH, as npm links one; taken away in the last test.
    const bin = path.join(home, 'bin');
    fs.mkdirSync(bin);
    fakeBlitz = path.join(bin, 'blitz');
    fs.writeFileSync(fakeBlitz, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    // The rest of PATH without the `blitz` npm puts in node_modules/.bin.
    const rest = (process.env.PATH ?? '').split(path.delimiter).filter((d) => d !== '' && !fs.existsSync(path.join(d, 'blitz')));
    daemon = await startDaemonProcess(home, { PATH: [bin, ...rest].join(path.delimiter) });
    base = `http://127.0.0.1:${daemon.state.port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await assertNoOrphans();
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it("shows each client's blitz entry, with this daemon's BLITZ_HOME, and copies it", async () => {
    await page.goto(await settingsAddress(home));
    await page.waitForURL(`${base}/settings/`);
    await page.getByRole('link', { name: 'Connect a client' }).click();
    await page.waitForURL(`${base}/settings/#/clients`);
    const snippet = page.getByTestId('snippet');
    // The daemon's home is not the default one here: the entry carries it, as blitz clients connect writes it.
    expect(await snippet.textContent()).toBe(`claude mcp add --scope user -e BLITZ_HOME=${home} blitz -- blitz connect`);
    await page.getByRole('combobox', { name: 'Client' }).selectOption('cursor');
    expect(JSON.parse((await snippet.textContent())!)).toEqual({
      mcpServers: { blitz: { command: 'blitz', args: ['connect'], env: { BLITZ_HOME: home } } },
    });
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.getByText('Copied the Cursor entry.').count()).toBe(1);
    const copied = await page.evaluate(() =>
      (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
    );
    expect(copied).toBe(await snippet.textContent());
    await page.getByRole('combobox', { name: 'Client' }).selectOption('codex');
    expect(await snippet.textContent()).toBe(
      `[mcp_servers.blitz]\ncommand = "blitz"\nargs = ["connect"]\nenv = { BLITZ_HOME = ${JSON.stringify(home)} }`,
    );
    expect(await axeViolations(page)).toEqual([]);
  });

  it("shows what each client's tool list costs, as blitz context counts it, and server by server", async () => {
    const { id } = await daemon.client.openWorkspace(workspace);
    const receipt = await daemon.client.context(id);
    await page.goto(await settingsAddress(home));
    await page.waitForURL(`${base}/settings/`);
    await page.getByRole('link', { name: 'Connect a client' }).click();
    const table = page.getByRole('table', { name: "Each client's tools/list" });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(receipt.clients.length);
    expect(await page.getByText(`tokens counted with ${receipt.tokenizer}`).count()).toBe(1);
    const claude = receipt.clients.find((c) => c.client === 'claude-code')!;
    // The protocol fixture's tools are all behind search: every client is spared them.
    expect(claude.saved.tokens).toBeGreaterThan(0);
    const cells = await table.locator('tr[data-client="claude-code"]').locator('th, td').allTextContents();
    expect(cells).toEqual([
      'Claude Code',
      claude.surface,
      String(claude.listed.tools),
      expect.stringMatching(/^\d+(\.\d)? (bytes|KB)$/),
      claude.listed.tokens.toLocaleString('en-US'),
      `${claude.saved.tokens.toLocaleString('en-US')} tokens (${Math.round((100 * claude.saved.tokens) / claude.everyTool.tokens)} %)`,
    ]);
    await page.getByText('Claude Code, server by server').click();
    const byServer = page.getByRole('table', { name: "Claude Code's tools/list by server" });
    const rows = await byServer.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    expect(rows.map((r) => [r[0], r[1], r[2], r[4]])).toEqual(
      claude.servers.map((s) => [s.server, String(s.tools), String(s.deferred), s.tokens.toLocaleString('en-US')]),
    );
    expect(rows.find((r) => r[0] === 'px')![2]).not.toBe('0');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('names Node and blitz by full paths when blitz is not on the PATH, and says so', async () => {
    fs.rmSync(fakeBlitz);
    await page.goto(await settingsAddress(home));
    await page.waitForURL(`${base}/settings/`);
    await page.getByRole('link', { name: 'Connect a client' }).click();
    await page.getByRole('combobox', { name: 'Client' }).selectOption('cursor');
    const snippet = page.getByTestId('snippet');
    expect(JSON.parse((await snippet.textContent())!)).toEqual({
      mcpServers: { blitz: { command: process.execPath, args: [fs.realpathSync(BLITZ_BIN), 'connect'], env: { BLITZ_HOME: home } } },
    });
    expect(await page.getByText("is not on the daemon's PATH, so the entry names Node and Blitz by their full paths").count()).toBe(1);
  });
});
