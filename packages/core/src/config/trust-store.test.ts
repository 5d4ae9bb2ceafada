import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TrustStore } from './trust-store.js';

let tmp: string;
let project: string;
let store: TrustStore;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-trust-'));
  project = path.join(tmp, 'project');
  fs.mkdirSync(path.join(project, '.agents'), { recursive: true });
  fs.writeFileSync(path.join(project, '.mcp.json'), '{"mcpServers": {"a": {"command": "x"}}}');
  store = new TrustStore(path.join(tmp, 'home', 'state', 'trust.json'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('TrustStore', async () => {
  it('trusts a project by canonical path, through symlinks', async () => {
    expect(store.isTrusted(project)).toBe(false);
    const link = path.join(tmp, 'link');
    fs.symlinkSync(project, link);
    expect(await store.trust(link)).toBe(fs.realpathSync(project));
    expect(store.isTrusted(project)).toBe(true);
    expect(store.isTrusted(link)).toBe(true);
    expect(fs.statSync(path.join(tmp, 'home', 'state', 'trust.json')).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['.mcp.json edited', () => fs.appendFileSync(path.join(project, '.mcp.json'), ' ')],
    ['.mcp.json removed', () => fs.rmSync(path.join(project, '.mcp.json'))],
    ['.agents/mcp_config.json added', () => fs.writeFileSync(path.join(project, '.agents', 'mcp_config.json'), '{}')],
  ])('trust is lost when a project file changes: %s', async (_, change) => {
    await store.trust(project);
    change();
    expect(store.isTrusted(project)).toBe(false);
    expect(store.list()).toEqual([{ path: fs.realpathSync(project), trustedAt: expect.any(String), current: false }]);
    await store.trust(project);
    expect(store.isTrusted(project)).toBe(true);
  });

  it('revokes and lists', async () => {
    await store.trust(project, new Date('2026-01-02T03:04:05Z'));
    expect(store.list()).toEqual([{ path: fs.realpathSync(project), trustedAt: '2026-01-02T03:04:05.000Z', current: true }]);
    expect(await store.revoke(project)).toBe(true);
    expect(await store.revoke(project)).toBe(false);
    expect(store.isTrusted(project)).toBe(false);
    expect(store.list()).toEqual([]);
  });
});
