import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inspectLocalScope } from './inspect-client.js';
import { claudeCode } from './specs/claude-code.js';
import type { Where } from './where.js';

/** Every home a test made (one may make several). */
const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});

/** A home whose ~/.claude.json keeps servers for these project keys. */
function claudeJson(projects: Record<string, string[]>): Where {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-local-scope-'));
  homes.push(home);
  const data = {
    projects: Object.fromEntries(
      Object.entries(projects).map(([key, names]) => [key, { mcpServers: Object.fromEntries(names.map((n) => [n, { command: n }])) }]),
    ),
  };
  fs.writeFileSync(path.join(home, '.claude.json'), JSON.stringify(data));
  return { home, env: { HOME: home }, platform: 'linux', listDir: () => [] };
}

describe("inspectLocalScope: Claude Code's servers kept for one Windows folder", () => {
  it('are found whichever drive-letter case Claude Code wrote its key in', async () => {
    const names = async (where: Where, dir: string) => (await inspectLocalScope(claudeCode, where, dir))?.servers.map((s) => s.name);
    // Written by a session VS Code started (c:), asked for as a shell gives it (C:).
    expect(await names(claudeJson({ 'c:/work/app': ['from-vscode'] }), 'C:\\work\\app')).toEqual(['from-vscode']);
    // Written from a shell (C:), asked for in lower case.
    expect(await names(claudeJson({ 'C:/work/app': ['from-shell'] }), 'c:\\work\\app')).toEqual(['from-shell']);
    // Both: the upper-case key's, as Claude Code's CLI reads it from a shell.
    expect(await names(claudeJson({ 'c:/work/app': ['lower'], 'C:/work/app': ['upper'] }), 'c:\\work\\app')).toEqual(['upper']);
    expect(await names(claudeJson({ 'C:/other': ['x'] }), 'C:\\work\\app')).toBeUndefined();
  });
});
