import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { REAL_WAIT } from '../../packages/core/src/testing/real-wait.js';
import { BLITZ_BIN, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { axeViolations, CHROMIUM, CHROMIUM_FLAGS, NO_BROWSER, settingsAddress } from '../support/settings-browser.js';

const SETTINGS = '# my servers\n[daemon]\nport = 0\n';
// A Cursor file as people keep it: a comment, a secret in env, owner-only permissions.
const CURSOR = `{
  // notes for work
  "mcpServers": {
    "notes": { "command": "nonexistent-notes-mcp", "args": ["--dir", "/srv/notes"], "env": { "NOTES_TOKEN": "sk-live-123456789" } }
  }
}
`;
const BROKEN = '{ "mcpServers": { "docs": { "command": "docs-mcp" } '; // cut short: never written over

let home: string;
let daemon: RunningDaemon;
let browser: Browser;
let page: Page;
let cursorFile: string;
let windsurfFile: string;

describe.skipIf(NO_BROWSER)("the settings page's clients: import and connect with the diff first (issue 29.9)", () => {
  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    home = tempDir('blitz-page-client-files-');
    writeSettings(home, SETTINGS);
    cursorFile = path.join(home, '.cursor', 'mcp.json');
    fs.mkdirSync(path.dirname(cursorFile), { recursive: true });
    fs.writeFileSync(cursorFile, CURSOR, { mode: 0o600 });
    windsurfFile = path.join(home, '.codeium', 'windsurf', 'mcp_config.json');
    fs.mkdirSync(path.dirname(windsurfFile), { recursive: true });
    fs.writeFileSync(windsurfFile, BROKEN);
    daemon = await startDaemonProcess(home);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await assertNoOrphans();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it("lists each client's tool surface, shows import's diff, and imports on the button", async () => {
    await page.goto(await settingsAddress(home));
    await page.getByRole('link', { name: 'Connect a client' }).click();
    const table = page.getByRole('table', { name: 'Clients Blitz knows' });
    await expect.poll(() => table.getByRole('row').count(), REAL_WAIT).toBe(10);
    expect(await table.getByRole('row', { name: /Claude Code/ }).textContent()).toContain('every tool listed');
    expect(await table.getByRole('row', { name: /VS Code/ }).textContent()).toContain('up to 128 tools listed');
    expect(await table.getByRole('row', { name: /Windsurf/ }).textContent()).toContain('unreadable');

    const cursor = page.getByRole('region', { name: 'Cursor' });
    const importDiff = cursor.getByLabel('What importing from Cursor changes in settings.toml');
    const diff = (await importDiff.textContent())!;
    expect(diff).toContain('+[[mcp.servers]]');
    expect(diff).toContain('+name = "notes"');
    // The page never shows a secret: the diff masks it as blitz mcp get does.
    expect(await page.content()).not.toContain('sk-live-123456789');
    expect(await axeViolations(page)).toEqual([]);

    await cursor.getByRole('button', { name: 'Import 1 server from Cursor' }).click();
    await expect.poll(() => cursor.getByText(/Imported notes into/).count(), REAL_WAIT).toBe(1);
    expect(fs.readFileSync(path.join(home, 'settings.toml'), 'utf8')).toBe(
      SETTINGS +
        '\n[[mcp.servers]]\nname = "notes"\ncommand = "nonexistent-notes-mcp"\nargs = ["--dir", "/srv/notes"]\nenv = { NOTES_TOKEN = "sk-live-123456789" }\n',
    );
    // The broken file is reported and offered nothing; its bytes stay as they were.
    const windsurf = page.getByRole('region', { name: 'Windsurf' });
    expect(await windsurf.getByRole('alert').textContent()).toContain(windsurfFile);
    expect(await windsurf.getByRole('button').count()).toBe(0);
    expect(fs.readFileSync(windsurfFile, 'utf8')).toBe(BROKEN);
  });

  it('shows what connect changes, then connects: the comment and the permissions kept', async () => {
    const cursor = page.getByRole('region', { name: 'Cursor' });
    const connectDiff = cursor.getByLabel('What connecting Cursor changes in its file');
    await expect
      .poll(async () => (await connectDiff.count()) === 1 && (await connectDiff.textContent())!, REAL_WAIT)
      .toContain('-    "notes"');
    const diff = (await connectDiff.textContent())!;
    expect(diff).toContain(`+    "blitz": {`);
    expect(diff).not.toContain('sk-live-123456789');
    await cursor.getByRole('button', { name: 'Connect Cursor' }).click();
    await expect.poll(() => cursor.getByText(/Connected .*took out notes/).count(), REAL_WAIT).toBe(1);
    const bin = fs.realpathSync(BLITZ_BIN);
    expect(fs.readFileSync(cursorFile, 'utf8')).toBe(
      `{\n  // notes for work\n  "mcpServers": {\n    "blitz": {\n      "command": ${JSON.stringify(process.execPath)},\n      "args": [\n        ${JSON.stringify(bin)},\n        "connect"\n      ],\n      "env": {\n        "BLITZ_HOME": ${JSON.stringify(home)}\n      }\n    }\n  }\n}\n`,
    );
    expect(fs.statSync(cursorFile).mode & 0o777).toBe(0o600);
    await expect.poll(() => cursor.getByText('It already points at Blitz.').count(), REAL_WAIT).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
  });
});
