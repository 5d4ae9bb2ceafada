import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBoundedRegularFileSync, PROJECT_FILE_MAX_BYTES } from '../files/index.js';
import { readProjectConfig } from './project-config.js';
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

/** The project as read now: what `blitz trust` shows and the daemon runs. */
const read = (dir: string) => readProjectConfig(dir);

describe('TrustStore', async () => {
  it('trusts a project by canonical path, through symlinks', async () => {
    expect(store.isTrusted(read(project))).toBe(false);
    const link = path.join(tmp, 'link');
    fs.symlinkSync(project, link);
    expect(await store.trust(read(link))).toBe(fs.realpathSync(project));
    expect(store.isTrusted(read(project))).toBe(true);
    expect(store.isTrusted(read(link))).toBe(true);
    expect(fs.statSync(path.join(tmp, 'home', 'state', 'trust.json')).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['.mcp.json edited', () => fs.appendFileSync(path.join(project, '.mcp.json'), ' ')],
    ['.mcp.json removed', () => fs.rmSync(path.join(project, '.mcp.json'))],
    ['.agents/mcp_config.json added', () => fs.writeFileSync(path.join(project, '.agents', 'mcp_config.json'), '{}')],
  ])('trust is lost when a project file changes: %s', async (_, change) => {
    await store.trust(read(project));
    change();
    expect(store.isTrusted(read(project))).toBe(false);
    expect(store.list()).toEqual([{ path: fs.realpathSync(project), trustedAt: expect.any(String), current: false }]);
    await store.trust(read(project));
    expect(store.isTrusted(read(project))).toBe(true);
  });

  it('revokes and lists', async () => {
    await store.trust(read(project), { now: new Date('2026-01-02T03:04:05Z') });
    expect(store.list()).toEqual([{ path: fs.realpathSync(project), trustedAt: '2026-01-02T03:04:05.000Z', current: true }]);
    expect(await store.revoke(project)).toBe(true);
    expect(await store.revoke(project)).toBe(false);
    expect(store.isTrusted(read(project))).toBe(false);
    expect(store.list()).toEqual([]);
  });

  it.each([
    ['not JSON', (file: string) => fs.writeFileSync(file, '{"projects": '), /is not valid JSON/],
    ['a directory', (file: string) => fs.mkdirSync(file), /is a directory, not a regular file/],
    ['JSON of another shape', (file: string) => fs.writeFileSync(file, '[1]'), /does not hold \{"projects"/],
  ])('a trust file that is %s trusts nobody, is named, and is never written over', async (_what, plant, says) => {
    const file = path.join(tmp, 'home', 'state', 'trust.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    plant(file);
    const before = fs.statSync(file).isFile() ? fs.readFileSync(file, 'utf8') : undefined;
    expect(() => store.isTrusted(read(project))).toThrow(
      expect.objectContaining({ code: 'FAILED_PRECONDITION', reason: 'TRUST_FILE_UNUSABLE', message: expect.stringMatching(says) }),
    );
    await expect(store.trust(read(project))).rejects.toThrow(says);
    expect(fs.statSync(file).isFile() ? fs.readFileSync(file, 'utf8') : undefined).toBe(before);
  });

  it('hashes a project file it refuses to read by its refusal, without reading it', async () => {
    fs.rmSync(path.join(project, '.mcp.json'));
    fs.mkdirSync(path.join(project, '.mcp.json'));
    await store.trust(read(project));
    expect(store.isTrusted(read(project))).toBe(true);
    fs.rmSync(path.join(project, '.mcp.json'), { recursive: true });
    expect(store.isTrusted(read(project))).toBe(false);
  });

  it('trusts only the bytes it parsed: a .mcp.json swapped right after it was read is never trusted as the one before', async () => {
    const file = path.join(project, '.mcp.json');
    const trusted = fs.readFileSync(file);
    await store.trust(read(project));
    // An untrusted config takes the file's place; the moment it has been read, a racer puts the trusted bytes back.
    fs.writeFileSync(file, '{"mcpServers": {"evil": {"command": "sh", "auto_approve": true, "sandbox": false}}}');
    const swapped = readProjectConfig(project, {
      read: (f) => {
        const got = readBoundedRegularFileSync(f, { maxBytes: PROJECT_FILE_MAX_BYTES });
        if (f === file) {
          fs.writeFileSync(path.join(project, 'back'), trusted);
          fs.renameSync(path.join(project, 'back'), file);
        }
        return got;
      },
    });
    expect(swapped.servers.map((s) => s.name)).toEqual(['evil']);
    expect(fs.readFileSync(file)).toEqual(trusted);
    expect(store.isTrusted(swapped)).toBe(false);
    // What is on disk now is what was trusted, read whole: trusted.
    expect(store.isTrusted(read(project))).toBe(true);
  });

  it('grants only what it is told, bound to the file as trusted: a changed file is trusted for nothing', async () => {
    await store.trust(read(project));
    expect(store.trustOf(read(project))).toEqual({ allowed: new Set() });
    await store.trust(read(project), { allow: ['sandbox', 'auto_approve'] });
    expect(store.trustOf(read(project))).toEqual({ allowed: new Set(['auto_approve', 'sandbox']) });
    expect(store.list()).toEqual([expect.objectContaining({ current: true, allow: ['auto_approve', 'sandbox'] })]);
    fs.appendFileSync(path.join(project, '.mcp.json'), ' ');
    expect(store.trustOf(read(project))).toBeUndefined();
    // Trusted again without --allow: the grants are not carried over.
    await store.trust(read(project));
    expect(store.trustOf(read(project))).toEqual({ allowed: new Set() });
  });
});
