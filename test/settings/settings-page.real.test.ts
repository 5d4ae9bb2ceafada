import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { REPO_ROOT, runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { connectHub, textOf } from '../support/hub-client.js';
import { axeViolations, CHROMIUM, CHROMIUM_FLAGS, NO_BROWSER, settingsAddress as openAddress } from '../support/settings-browser.js';

/** Set to a folder (docs/images) to write the screenshots of docs/settings-page.md. */
const SCREENSHOTS = process.env.BLITZ_SCREENSHOTS;

const require = createRequire(path.join(REPO_ROOT, 'packages', 'core', 'package.json'));
const EVERYTHING = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const HEADER_SECRET = 'hdr-secret-4f1e9a';
/** The page reads the daemon every 2 s; a loaded 2-core machine gets room beyond that. */
const SLOW = { timeout: 15_000 };

let home: string;
let workspace: string;
let settingsFile: string;
let daemon: RunningDaemon;
let hub: Client;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let base: string;
const requested: string[] = [];

function settingsText(): string {
  const failing = fixtureCommand('exit-at-start');
  return [
    '# My Blitz settings: this comment must survive every edit from the page.',
    '[daemon]',
    'port = 0',
    '',
    '# The reference server.',
    '[[mcp.servers]]',
    'name = "everything"',
    `command = ${JSON.stringify(process.execPath)}`,
    `args = ${JSON.stringify([EVERYTHING, 'stdio'])}`,
    'prefix = "ev"',
    'sandbox = false',
    '',
    '[[mcp.servers]]',
    'name = "broken"',
    `command = ${JSON.stringify(failing.command)}`,
    `args = ${JSON.stringify(failing.args)}`,
    'sandbox = false',
    '',
    '# The remote one, off until it is needed.',
    '[[mcp.servers]]',
    'name = "remote"',
    'url = "https://mcp.example.com/mcp"',
    `headers = { "X-Key" = "${HEADER_SECRET}" }`,
    'disabled = true',
    '',
  ].join('\n');
}

function settingsAddress(): Promise<string> {
  return openAddress(home);
}

async function newPage(ctx: BrowserContext): Promise<Page> {
  const p = await ctx.newPage();
  p.on('request', (r) => requested.push(r.url()));
  return p;
}

async function shoot(p: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await p.emulateMedia({ colorScheme: scheme });
    await p.screenshot({ path: path.join(SCREENSHOTS, `settings-${name}-${scheme}.png`), fullPage: true });
  }
  await p.emulateMedia({ colorScheme: 'light' });
}

/** The browser holds a settings session: opened by a one-time address when it holds none yet. */
async function signIn(): Promise<void> {
  if ((await context.cookies(base)).some((c) => c.name === 'blitz_settings')) return;
  await page.goto(await settingsAddress());
  await page.waitForURL(`${base}/settings/`);
}

async function showList(): Promise<void> {
  await signIn();
  await page.goto(`${base}/settings/#/`);
  await page.locator('a.server-name').first().waitFor();
}

async function showServer(name: string): Promise<void> {
  await showList();
  await page.goto(`${base}/settings/#/server/${name}`);
}

/** Appends a stdio server (env-dump) to settings.toml, as an editor would, and waits for the page to list it. */
async function addServer(name: string): Promise<void> {
  const { command, args } = fixtureCommand('env-dump');
  fs.appendFileSync(
    settingsFile,
    `\n[[mcp.servers]]\nname = "${name}"\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\nsandbox = false\n`,
  );
  await showList();
  await expect.poll(() => page.locator('a.server-name').allTextContents(), SLOW).toContain(name);
}

/** WCAG's contrast ratio of two computed `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (rgb: string) => {
    const [r, g, bl] = rgb
      .match(/\d+(\.\d+)?/g)!
      .slice(0, 3)
      .map((c) => {
        const v = Number(c) / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** The computed background of an element (the test's types have no DOM). */
function background(element: Locator): Promise<string> {
  return element.evaluate(
    (el) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor,
  );
}

/** What has the focus: its tag, class and text. */
function focused(p: Page): Promise<string> {
  return p.evaluate(() => {
    const el = (
      globalThis as unknown as { document: { activeElement: { tagName: string; className: string; textContent: string } | null } }
    ).document.activeElement;
    return el ? `${el.tagName.toLowerCase()}.${el.className} ${el.textContent}` : 'nothing';
  });
}

const row = (p: Page, name: string) => p.locator('li.server', { has: p.locator(`a.server-name:text-is("${name}")`) });

async function toolNames(): Promise<string[]> {
  return (await hub.listTools()).tools.map((t) => t.name);
}

describe.skipIf(NO_BROWSER)('the settings page in a real browser', () => {
  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    home = tempDir('blitz-page-');
    workspace = tempDir('blitz-page-ws-');
    settingsFile = path.join(home, 'settings.toml');
    writeSettings(home, settingsText());
    daemon = await startDaemonProcess(home);
    base = `http://127.0.0.1:${daemon.state.port}`;
    // A connected MCP client keeps a workspace open, so servers have live state and tools.
    hub = await connectHub(daemon.state, { workspace });
    await toolNames();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    page = await newPage(context);
  });

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
    await daemon?.stop();
    await assertNoOrphans();
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it('opens by the one-time address of blitz settings, lands on a clean address, and lists the servers in settings order with their state', async () => {
    const address = await settingsAddress();
    const response = await page.goto(address);
    expect(page.url()).toBe(`${base}/settings/`);
    expect(response!.headers()['content-security-policy']).toContain("default-src 'none'");
    const cookies = await context.cookies(base);
    expect(cookies).toEqual([expect.objectContaining({ name: 'blitz_settings', httpOnly: true, sameSite: 'Strict' })]);
    await expect.poll(() => page.locator('a.server-name').allTextContents(), SLOW).toEqual(['everything', 'broken', 'remote']);
    await expect.poll(() => row(page, 'everything').locator('.state').textContent(), SLOW).toBe('connected');
    await expect.poll(() => row(page, 'everything').locator('.tools').textContent(), SLOW).toMatch(/^\d+ tools$/);
    await expect.poll(() => row(page, 'broken').locator('.state').textContent(), SLOW).toBe('failed');
    expect(await row(page, 'remote').locator('.state').textContent()).toBe('off');
    expect(await row(page, 'remote').locator('.badge').textContent()).toBe('HTTP');
    expect(await row(page, 'remote').textContent()).toContain('https://mcp.example.com/mcp');
    await expect.poll(() => page.locator('.notice').count(), SLOW).toBeGreaterThan(0);
    expect(await page.locator('.notice').first().textContent()).toContain('broken');
    // One tab stop per place: no row has two links to the same view.
    for (const name of ['everything', 'broken', 'remote']) {
      const hrefs = await row(page, name)
        .locator('a[href]')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(hrefs, name).toEqual([...new Set(hrefs)]);
    }
    const icon = await page.locator('link[rel=icon]').getAttribute('href');
    expect((await page.request.get(new URL(icon!, `${base}/settings/`).href)).headers()['content-type']).toBe('image/svg+xml');
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, 'list');
  });

  it('refuses the used address, a wrong code, a browser without the cookie, and a foreign Origin', async () => {
    const address = await settingsAddress();
    const fresh = await browser.newContext();
    try {
      const first = await newPage(fresh);
      await first.goto(address);
      expect(first.url()).toBe(`${base}/settings/`);
      const other = await browser.newContext();
      const second = await newPage(other);
      for (const [url, status] of [
        [address, 403],
        [`${base}/settings/?code=wrong`, 403],
        [`${base}/settings/`, 401],
        [`${base}/settings/app.js`, 401],
      ] as const) {
        const answer = await second.goto(url);
        expect(answer!.status(), url).toBe(status);
        expect(await second.locator('body').textContent(), url).toContain('blitz settings');
        expect(await second.locator('script').count()).toBe(0);
      }
      expect(await other.cookies(base)).toEqual([]);
      const api = await second.goto(`${base}/v1/config/mcp-servers`);
      expect(api!.status()).toBe(401);
      await other.close();

      // A page of another local site (another port is the same site, so the cookie goes along) posts a change: the Origin check refuses it.
      const before = fs.readFileSync(settingsFile, 'utf8');
      const foreign = http.createServer((_req, res) => res.end('<!doctype html><title>elsewhere</title>'));
      await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
      try {
        await first.goto(`http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`);
        const answer = await first.evaluate(async (url) => {
          try {
            const r = await fetch(url, { method: 'POST', credentials: 'include', mode: 'no-cors', body: '{"enabled":false}' });
            return r.type;
          } catch (err) {
            return String(err);
          }
        }, `${base}/v1/config/mcp-servers/everything/enabled`);
        expect(answer).toBe('opaque');
      } finally {
        await new Promise((resolve) => foreign.close(resolve));
      }
      expect(fs.readFileSync(settingsFile, 'utf8')).toBe(before);
      const cookie = (await fresh.cookies(base)).map((c) => `${c.name}=${c.value}`).join('; ');
      const forged = await fetch(`${base}/v1/config/mcp-servers/everything/enabled`, {
        method: 'POST',
        headers: { cookie, origin: 'http://evil.example', 'content-type': 'application/json' },
        body: '{"enabled":false}',
      });
      expect(forged.status).toBe(403);
      expect(((await forged.json()) as { reason: string }).reason).toBe('FOREIGN_ORIGIN');
      const noCsrf = await fetch(`${base}/v1/config/mcp-servers/everything/enabled`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: '{"enabled":false}',
      });
      expect(((await noCsrf.json()) as { reason: string }).reason).toBe('BAD_CSRF_TOKEN');
      expect(fs.readFileSync(settingsFile, 'utf8')).toBe(before);
    } finally {
      await fresh.close();
    }
  });

  it('adds a stdio server through the form: written with the comments kept, the sandbox written only when off, and connected on the page', async () => {
    await showList();
    await page.getByRole('link', { name: 'Add server' }).click();
    await page.getByLabel('Name', { exact: true }).fill('added');
    const envDump = fixtureCommand('env-dump');
    await page.getByLabel('Command', { exact: true }).fill(envDump.command);
    await page.getByLabel('Arguments, one a line').fill(envDump.args.join('\n'));
    await page.getByLabel('Environment, NAME=value lines').fill('GREETING=hello');
    expect(await page.getByLabel('Run it in the OS sandbox').isChecked()).toBe(true);
    await page.getByLabel('Run it in the OS sandbox').uncheck();
    await page.getByLabel('Timeout of one call, in seconds').fill('45');
    await page.getByLabel('Run its tools without asking').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/server\/added$/);
    const text = fs.readFileSync(settingsFile, 'utf8');
    expect(text).toContain('# My Blitz settings: this comment must survive every edit from the page.');
    expect(text).toContain('# The reference server.');
    expect(text).toMatch(/name = "added"[\s\S]*sandbox = false/);
    expect(text).toMatch(/name = "added"[\s\S]*timeout_seconds = 45/);
    expect(text).toMatch(/name = "added"[\s\S]*auto_approve = true/);
    // A client lists its tools, which starts it; the page follows without a reload.
    await expect.poll(toolNames, SLOW).toContain('env');
    expect(textOf(await hub.callTool({ name: 'env', arguments: {} }))).toContain('"GREETING":"hello"');
    await expect.poll(() => page.getByTestId('detail-state').textContent(), SLOW).toBe('connected');
    await page.getByRole('link', { name: '← All servers' }).click();
    await expect.poll(() => row(page, 'added').locator('.state').textContent(), SLOW).toBe('connected');
  });

  it('a saved server whose command is not on PATH is saved, and its page says so once, in the words of blitz doctor (issue 26.5)', async () => {
    await showList();
    await page.getByRole('link', { name: 'Add server' }).click();
    await page.getByLabel('Name', { exact: true }).fill('not-installed');
    await page.getByLabel('Command', { exact: true }).fill('mcp-server-does-not-exist');
    await page.getByLabel('Run it in the OS sandbox').uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/server\/not-installed$/);
    expect(fs.readFileSync(settingsFile, 'utf8')).toContain('name = "not-installed"');
    await expect
      .poll(() => page.getByTestId('save-warnings').textContent(), SLOW)
      .toContain('mcp-server-does-not-exist is not on PATH; install it, or give its full path');
    await page.getByRole('link', { name: '← All servers' }).click();
    await row(page, 'not-installed').getByRole('link').first().click();
    await page.waitForURL(/#\/server\/not-installed$/);
    expect(await page.getByTestId('save-warnings').count()).toBe(0);
    // The tests after this one share the settings: it goes again.
    await daemon.client.removeServer('not-installed');
  });

  it('lists every problem of a form in the order of its fields, each a link to its field, in plain words, and writes nothing', async () => {
    await showList();
    const before = fs.readFileSync(settingsFile, 'utf8');
    await page.getByRole('link', { name: 'Add server' }).click();
    await page.getByLabel('Name', { exact: true }).fill('everything');
    // The transport comes first, and only its own fields are shown: no sandbox for a web address.
    expect(await page.getByLabel('URL', { exact: true }).count()).toBe(0);
    await page.getByLabel('A web address (streamable HTTP)').check();
    expect(await page.getByLabel('Command', { exact: true }).count()).toBe(0);
    expect(await page.getByLabel('Run it in the OS sandbox').count()).toBe(0);
    await page.getByLabel('URL', { exact: true }).fill('localhost:9/mcp');
    await page.getByLabel('Timeout of one call, in seconds').fill('soon');
    await page.getByRole('button', { name: 'Save' }).click();
    const problems = page.locator('#form-problems li');
    await expect.poll(() => problems.count(), SLOW).toBe(3);
    const texts = await problems.allTextContents();
    expect(texts).toEqual([
      `name: an MCP server named "everything" already exists in ${settingsFile}`,
      'url: needs http:// or https:// in front, such as http://localhost:9/mcp',
      expect.stringMatching(/^timeout_seconds: /),
    ]);
    // The same words as the CLI, which validates with the same code.
    const cli = await runBlitz(['mcp', 'add', 'everything', 'node'], { home });
    expect(cli.stderr).toContain(texts[0]!.slice('name: '.length));
    await problems.nth(1).getByRole('link').click();
    expect(
      await page
        .getByLabel('URL', { exact: true })
        .evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement),
    ).toBe(true);
    expect(page.url()).toMatch(/#\/add$/);
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Timeout of one call, in seconds').getAttribute('aria-invalid')).toBe('true');
    expect(fs.readFileSync(settingsFile, 'utf8')).toBe(before);
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, 'form');
    // An empty name is "required", not a quoted "".
    await page.getByLabel('Name', { exact: true }).fill('');
    await page.getByLabel('URL', { exact: true }).fill('https://mcp.example.com/mcp');
    await page.getByLabel('Timeout of one call, in seconds').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => problems.allTextContents(), SLOW).toEqual(['name: is required']);
    expect(fs.readFileSync(settingsFile, 'utf8')).toBe(before);
    await page.getByRole('link', { name: 'Cancel' }).click();
  });

  it('fills the form from a server’s JSON pasted from a README, and saves it with a prefix', async () => {
    await showList();
    await page.getByRole('link', { name: 'Add server' }).click();
    const { command, args } = fixtureCommand('env-dump');
    const readme = JSON.stringify(
      { mcpServers: { pasted: { command, args, env: { GREETING: 'pasted' }, alwaysAllow: ['env'] }, another: { command: 'npx' } } },
      null,
      2,
    );
    await page.getByText('Paste a server’s JSON from its README').click();
    await page.getByLabel(/^Its JSON/).fill('not json at all');
    await page.getByRole('button', { name: 'Fill the form' }).click();
    await expect.poll(() => page.getByTestId('paste-note').textContent(), SLOW).toContain('Nothing filled: this is not JSON');
    await page.getByLabel(/^Its JSON/).fill(readme);
    await page.getByRole('button', { name: 'Fill the form' }).click();
    const note = await page.getByTestId('paste-note').textContent();
    expect(note).toContain('server "pasted"');
    expect(note).toContain('1 more (another)');
    expect(note).toContain('Not used here: alwaysAllow');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('pasted');
    expect(await page.getByLabel('Command', { exact: true }).inputValue()).toBe(command);
    expect(await page.getByLabel('Arguments, one a line').inputValue()).toBe(args.join('\n'));
    expect(await page.getByLabel('Environment, NAME=value lines').inputValue()).toBe('GREETING=pasted');
    await page.getByLabel('Run it in the OS sandbox').uncheck();
    await page.getByLabel('Prefix of its tool names').fill('pst');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/server\/pasted$/);
    expect(fs.readFileSync(settingsFile, 'utf8')).toMatch(/name = "pasted"[\s\S]*prefix = "pst"/);
    await expect.poll(toolNames, SLOW).toContain('pst__env');
  });

  it('shows a server whose tools are all skipped for a name clash with its warnings, on its row and in its detail, and the remedy leads to the prefix field', async () => {
    await addServer('twin');
    // A client lists the tools, which starts it: both of its tools are named as "added"'s are.
    await expect
      .poll(async () => (await daemon.client.status()).servers.find((s) => s.name === 'twin')?.warnings?.length ?? 0, SLOW)
      .toBe(2);
    const warnings = row(page, 'twin').getByTestId('warnings');
    await expect.poll(() => warnings.textContent(), SLOW).toContain('2 warnings:');
    expect(await warnings.textContent()).toContain('is skipped: server "added" already offers');
    await showServer('twin');
    await expect.poll(() => page.locator('dl.facts').textContent(), SLOW).toContain('2 not offered to clients');
    expect(await page.locator('dl.facts [data-testid=warnings]').textContent()).toContain('already offers');
    await page.getByRole('link', { name: 'Give it a prefix' }).click();
    await page.waitForURL(/#\/edit\/twin\?focus=prefix$/);
    const prefix = page.getByLabel('Prefix of its tool names');
    await expect
      .poll(
        () => prefix.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement),
        SLOW,
      )
      .toBe(true);
    await prefix.fill('tw');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/server\/twin$/);
    await expect.poll(toolNames, SLOW).toContain('tw__env');
    await expect.poll(async () => (await daemon.client.status()).servers.find((s) => s.name === 'twin')?.warnings, SLOW).toBeUndefined();
  });

  it('switched off by keyboard: the page, the status API and a connected MCP client agree', async () => {
    await showList();
    const toggle = row(page, 'everything').getByRole('switch');
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => row(page, 'everything').locator('.state').textContent(), SLOW).toBe('off');
    expect(await toggle.isChecked()).toBe(false);
    // The off switch stands out from its card, 3:1 at least (WCAG 1.4.11), light and dark.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // Polled: the track's colour eases from one scheme's to the other's.
      await expect
        .poll(
          async () => contrast(await background(row(page, 'everything').locator('.track')), await background(row(page, 'everything'))),
          { ...SLOW, message: scheme },
        )
        .toBeGreaterThanOrEqual(3);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect((await daemon.client.status()).servers.find((s) => s.name === 'everything')?.state).toBe('disabled');
    await expect.poll(toolNames, SLOW).not.toContain('ev__echo');
    expect(fs.readFileSync(settingsFile, 'utf8')).toMatch(/name = "everything"[\s\S]*disabled = true[\s\S]*name = "broken"/);
    await toggle.check();
    await expect.poll(toolNames, SLOW).toContain('ev__echo');
    await expect.poll(() => row(page, 'everything').locator('.state').textContent(), SLOW).toBe('connected');
  });

  it('edits a server whose header is masked: the stored value is kept, and never reaches the page', async () => {
    await showList();
    await row(page, 'remote').getByRole('link', { name: 'Edit remote' }).click();
    const headers = page.getByLabel('Headers, "Name: value" lines');
    await expect.poll(() => headers.inputValue(), SLOW).toBe('X-Key: ***');
    // An HTTP server: its transport chosen, and no sandbox box (ticked or not) to mislead.
    expect(await page.getByLabel('A web address (streamable HTTP)').isChecked()).toBe(true);
    expect(await page.getByLabel('Run it in the OS sandbox').count()).toBe(0);
    await page.getByLabel('Timeout of one call, in seconds').fill('30');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/server\/remote$/);
    const text = fs.readFileSync(settingsFile, 'utf8');
    expect(text).toContain(HEADER_SECRET);
    expect(text).toMatch(/name = "remote"[\s\S]*timeout_seconds = 30/);
    expect(text).toMatch(/name = "remote"[\s\S]*disabled = true/);
    expect(await page.content()).not.toContain(HEADER_SECRET);
  });

  it('renames a server through the Edit form: the file has the new name in its place with the comments kept, the old one is gone, and the page shows it', async () => {
    const rename = async (from: string, to: string) => {
      await showList();
      await row(page, from)
        .getByRole('link', { name: `Edit ${from}` })
        .click();
      const name = page.getByLabel('Name', { exact: true });
      await expect.poll(() => name.inputValue(), SLOW).toBe(from);
      await name.fill(to);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(new RegExp(`#/server/${to.replace('.', '\\.')}$`));
    };
    await showList();
    const names = await page.locator('a.server-name').allTextContents();
    const renamed = names.map((n) => (n === 'remote' ? 'remote.work' : n));
    expect(renamed).toContain('remote.work');
    await rename('remote', 'remote.work');
    const text = fs.readFileSync(settingsFile, 'utf8');
    expect(text).toContain('# My Blitz settings: this comment must survive every edit from the page.');
    expect(text).toContain('# The reference server.');
    // Renamed where it stood, its own comment still above it, its other fields (the secret header too) kept.
    expect(text).toMatch(/# The remote one, off until it is needed\.\n\[\[mcp\.servers\]\]\nname = "remote\.work"\n/);
    expect(text).not.toMatch(/name = "remote"/);
    expect(text).toMatch(/name = "remote\.work"[\s\S]*url = "https:\/\/mcp\.example\.com\/mcp"/);
    expect(text).toContain(HEADER_SECRET);
    expect(text).toMatch(/name = "remote\.work"[\s\S]*disabled = true/);
    await expect.poll(() => page.locator('#detail-heading').textContent(), SLOW).toBe('remote.work');
    await page.getByRole('link', { name: '← All servers' }).click();
    await expect.poll(() => page.locator('a.server-name').allTextContents(), SLOW).toEqual(renamed);
    expect((await daemon.client.status()).servers.map((s) => s.name)).toEqual(renamed);
    // And back, so the tests after this one find it by its first name.
    await rename('remote.work', 'remote');
    expect(fs.readFileSync(settingsFile, 'utf8')).toMatch(
      /# The remote one, off until it is needed\.\n\[\[mcp\.servers\]\]\nname = "remote"\n/,
    );
    await expect.poll(async () => (await daemon.client.status()).servers.map((s) => s.name), SLOW).toEqual(names);
  });

  it('shows a server’s detail: its tools with their approval, its stderr tail, Test with its result, and Restart per workspace', async () => {
    await showServer('everything');
    const tools = page.locator('table tbody tr');
    await expect.poll(() => tools.count(), SLOW).toBeGreaterThan(3);
    const echo = page.locator('tr[data-tool="echo"]');
    expect(await echo.locator('code.tool-name').textContent()).toBe('echo');
    expect(await echo.locator('.exposed').textContent()).toBe(' as ev__echo');
    expect(await echo.getByRole('combobox', { name: 'Approval of echo' }).inputValue()).toBe('ask');
    expect(await echo.getByRole('switch', { name: 'Offer echo' }).isChecked()).toBe(true);
    // A running server's stderr, read from its live process (the reference server says it starts there).
    const card = page.getByRole('region', { name: `everything in ${workspace}` });
    await card.getByText('Last lines of its stderr').click();
    await expect.poll(() => card.locator('pre.stderr').textContent(), SLOW).toContain('Starting default (STDIO) server...');
    await page.getByRole('button', { name: 'Test everything' }).click();
    await expect.poll(() => page.locator('.test-result').textContent(), { timeout: 30_000 }).toMatch(/^OK: \d+ tools in/);
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, 'detail');

    const { id } = (await daemon.client.listWorkspaces()).find((w) => w.root === workspace)!;
    const pidBefore = (await daemon.client.listWorkspaceServers(id)).find((s) => s.name === 'everything')!.pid;
    await page.getByRole('button', { name: `Restart everything in ${workspace}` }).click();
    await expect.poll(() => page.locator('.card p[aria-live]').textContent(), SLOW).toMatch(/^Restarted; now /);
    await expect.poll(toolNames, SLOW).toContain('ev__echo');
    // Its tools stay listed from the catalog cache while the new process starts: wait for it to be up.
    const everythingNow = async () => (await daemon.client.listWorkspaceServers(id)).find((s) => s.name === 'everything')!;
    await expect.poll(async () => (await everythingNow()).state, SLOW).toBe('connected');
    expect((await everythingNow()).pid).not.toBe(pidBefore);
  });

  it('shows a server’s tools once for every workspace that runs it, each with its switch and approval written to settings.toml, readable at 400 px', async () => {
    const second = tempDir('blitz-page-ws2-');
    const secondHub = await connectHub(daemon.state, { workspace: second });
    try {
      await secondHub.listTools();
      await showServer('everything');
      await expect.poll(() => page.locator('section.card[aria-label^="everything in "]').count(), SLOW).toBe(2);
      await expect.poll(() => page.locator('table.tools-table').count(), SLOW).toBe(1);
      const echo = page.locator('tr[data-tool="echo"]');
      await expect.poll(() => echo.count(), SLOW).toBe(1);
      // Every workspace lists it: no "only in".
      expect(await echo.textContent()).not.toContain('only in');

      await echo.getByRole('switch', { name: 'Offer echo' }).uncheck();
      await expect.poll(toolNames, SLOW).not.toContain('ev__echo');
      expect(fs.readFileSync(settingsFile, 'utf8')).toMatch(/name = "everything"[\s\S]*tools = \[/);
      // The switch moves at the click; the row says "not offered" once the page has read the daemon back.
      await expect.poll(() => echo.textContent(), SLOW).toContain('not offered');
      expect(await echo.getByRole('switch', { name: 'Offer echo' }).isChecked()).toBe(false);
      await echo.getByRole('switch', { name: 'Offer echo' }).check();
      await expect.poll(toolNames, SLOW).toContain('ev__echo');
      expect(fs.readFileSync(settingsFile, 'utf8')).not.toMatch(/name = "everything"[^[]*tools = /);

      await expect.poll(() => echo.getByRole('combobox', { name: 'Approval of echo' }).isEnabled(), SLOW).toBe(true);
      await echo.getByRole('combobox', { name: 'Approval of echo' }).selectOption('allow');
      await expect.poll(() => fs.readFileSync(settingsFile, 'utf8'), SLOW).toMatch(/\[permissions\]\nallow = \["mcp:everything:echo"\]/);
      await expect.poll(() => echo.getByRole('combobox', { name: 'Approval of echo' }).inputValue(), SLOW).toBe('allow');
      await echo.getByRole('combobox', { name: 'Approval of echo' }).selectOption('ask');
      await expect.poll(() => fs.readFileSync(settingsFile, 'utf8'), SLOW).not.toContain('mcp:everything:echo');
      expect(await axeViolations(page)).toEqual([]);

      await page.setViewportSize({ width: 400, height: 800 });
      const description = echo.locator('td.description');
      const box = await description.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(400);
      expect(box!.width).toBeGreaterThan(150);
    } finally {
      await page.setViewportSize({ width: 1000, height: 900 });
      await secondHub.close();
      fs.rmSync(second, { recursive: true, force: true });
    }
  });

  it('shows a failing server’s last error with the tail of its stderr, in the facts and per workspace, and its recent notices, newest first', async () => {
    await expect
      .poll(async () => (await daemon.client.status()).servers.find((s) => s.name === 'broken')?.error ?? '', SLOW)
      .toContain('FAKE_API_KEY is not set');
    await showServer('broken');
    await expect.poll(() => page.getByTestId('detail-state').textContent(), SLOW).toMatch(/^(failed|paused)/);
    await expect.poll(() => page.locator('dl.facts dd.server-error').textContent(), SLOW).toContain('FAKE_API_KEY is not set');
    // It died before it answered, so no link holds its stderr now: the tail is in the error, as `blitz mcp list` says it.
    const card = page.getByRole('region', { name: `broken in ${workspace}` });
    await expect.poll(() => card.locator('.server-error').textContent(), SLOW).toContain('exit-at-start: FAKE_API_KEY is not set');
    const notices = page.locator('.notices .notice');
    await expect.poll(() => notices.count(), SLOW).toBeGreaterThan(0);
    expect(await page.locator('#notices-heading').textContent()).toBe('Recent notices');
    const texts = await notices.allTextContents();
    for (const t of texts) expect(t).toMatch(/^.+ (failed|paused|recovered) broken: /);
    expect(texts.some((t) => / failed broken: /.test(t))).toBe(true);
    const times = await notices.locator('time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime') ?? ''));
    expect(times).toEqual([...times].sort().reverse());
    // Only this server's notices: the daemon's feed has the same ones for it, and the page none of another's.
    const fromDaemon = (await daemon.client.status()).notices.filter((n) => n.server === 'broken');
    expect(fromDaemon.length).toBeGreaterThanOrEqual(texts.length);
    await showServer('everything');
    await expect.poll(() => page.locator('#detail-heading').textContent(), SLOW).toBe('everything');
    expect(await page.locator('.notices .notice', { hasText: 'broken' }).count()).toBe(0);
  });

  it('shows a trusted project’s .mcp.json servers read-only under the project while its workspace is open', async () => {
    const project = tempDir('blitz-page-project-');
    const { command, args } = fixtureCommand('env-dump');
    fs.writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({ mcpServers: { 'proj-env': { command, args } } }));
    let projectHub: Client | undefined;
    try {
      await showList();
      const globals = await page.locator('a.server-name').allTextContents();
      expect(await page.getByRole('region', { name: `Project ${project}` }).count()).toBe(0);
      const trust = await runBlitz(['trust', project], { home });
      expect(trust.code, trust.stderr).toBe(0);
      projectHub = await connectHub(daemon.state, { workspace: project });
      await expect.poll(async () => (await projectHub!.listTools()).tools.map((t) => t.name), SLOW).toContain('env');
      const section = page.getByRole('region', { name: `Project ${project}` });
      await expect.poll(() => section.count(), SLOW).toBe(1);
      expect(await section.locator('.badge').first().textContent()).toBe('read-only');
      const projectRow = section.locator('li.server', { hasText: 'proj-env' });
      await expect.poll(() => projectRow.locator('.state').textContent(), SLOW).toBe('connected');
      expect(await projectRow.locator('.where').textContent()).toContain('.mcp.json');
      // Its tools are there to see, as a global server's are.
      expect(await projectRow.locator('.tools-list').textContent()).toBe('Tools: echo, env');
      // Read-only: no switch, no Edit, no Remove, not even a link to a global detail.
      expect(await section.getByRole('switch').count()).toBe(0);
      expect(await section.getByRole('link').count()).toBe(0);
      expect(await section.getByRole('button').count()).toBe(0);
      expect(await section.locator('input, select, textarea').count()).toBe(0);
      // Not a global server: the global list and settings.toml are as they were.
      expect(await page.locator('a.server-name').allTextContents()).toEqual(globals);
      expect(fs.readFileSync(settingsFile, 'utf8')).not.toContain('proj-env');
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await projectHub?.close();
      fs.rmSync(project, { recursive: true, force: true });
    }
  });

  it('removes a server after asking; the comments stay', async () => {
    await showList();
    const others = await page.locator('a.server-name').allTextContents();
    await addServer('leaving');
    await row(page, 'leaving').getByRole('button', { name: 'Remove leaving' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('sign-in it has is kept');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(fs.readFileSync(settingsFile, 'utf8')).toContain('name = "leaving"');
    await row(page, 'leaving').getByRole('button', { name: 'Remove leaving' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.locator('a.server-name').allTextContents(), SLOW).toEqual(others);
    // The focus goes to the server now in its place (here the last), not to the page's body.
    await expect.poll(() => focused(page), SLOW).toBe(`a.server-name ${others.at(-1)}`);
    const text = fs.readFileSync(settingsFile, 'utf8');
    expect(text).not.toContain('name = "leaving"');
    expect(text).toContain('# The reference server.');
  });

  it('with settings.toml in error shows its problems in a banner and offers nothing that writes; readable at 400 px', async () => {
    await showList();
    await page.setViewportSize({ width: 400, height: 800 });
    // The test's own types have no DOM: the page's width is read by name.
    expect(
      await page.evaluate(
        () => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth,
      ),
    ).toBeLessThanOrEqual(400);
    await shoot(page, 'narrow');
    const good = fs.readFileSync(settingsFile, 'utf8');
    fs.writeFileSync(settingsFile, `${good}\n[[mcp.servers]]\nname = "half"\n`);
    try {
      await expect.poll(() => page.locator('.banner[role=alert]').textContent(), SLOW).toContain('needs a command (stdio) or a url');
      expect(await page.getByRole('link', { name: 'Add server' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
      expect(await row(page, 'everything').getByRole('switch').isDisabled()).toBe(true);
    } finally {
      fs.writeFileSync(settingsFile, good);
    }
    await expect.poll(() => page.getByRole('link', { name: 'Add server' }).count(), SLOW).toBe(1);
    await page.setViewportSize({ width: 1000, height: 900 });
  });

  it('asked nothing of any host but the daemon', async () => {
    await showList();
    await showServer('everything');
    await expect.poll(() => page.locator('#detail-heading').textContent(), SLOW).toBe('everything');
    expect(requested.length).toBeGreaterThan(3);
    const elsewhere = requested.filter((url) => !url.startsWith(`${base}/`) && !/^http:\/\/127\.0\.0\.1:\d+\/$/.test(url));
    expect(elsewhere).toEqual([]);
  });
});
