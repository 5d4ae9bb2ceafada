import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { runBlitz } from './blitz-cli.js';

/** Debian's chromium (apt), driven by playwright-core; flags from DEPENDENCIES.md. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
export const NO_BROWSER =
  !fs.existsSync(CHROMIUM) && 'chromium is not installed (apt-get install chromium; scripts/install-system-packages.sh does it)';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** A one-time address as `blitz settings` (of `bin`, else BLITZ_BIN) prints it where no browser opens (no DISPLAY here). */
export async function settingsAddress(home: string, bin?: string): Promise<string> {
  const run = await runBlitz(['settings'], { home, ...(bin ? { bin } : {}) });
  expect(run.code, run.stderr).toBe(0);
  const url = /http:\/\/127\.0\.0\.1:\d+\/settings\/\?code=[\w-]+/.exec(run.stdout)?.[0];
  expect(url, run.stdout).toBeDefined();
  return url!;
}

/** axe-core's serious and critical findings on the page as it is now, in light and in dark. */
export async function axeViolations(p: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol, which the page's CSP does not govern.
  await p.evaluate(fs.readFileSync(AXE, 'utf8'));
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await p.emulateMedia({ colorScheme: scheme });
    const results = await p.evaluate(async () =>
      (
        globalThis as unknown as {
          axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> };
        }
      ).axe.run(),
    );
    found.push(
      ...results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${scheme}: ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    );
  }
  await p.emulateMedia({ colorScheme: 'light' });
  return found;
}
