import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceServerDetail } from '@blitz/client';
import { startInProcessDaemon, type InProcessDaemon } from '../testing/in-process-daemon.js';

const PROTOCOL = fileURLToPath(new URL('../../../../test/fixtures/protocol.mjs', import.meta.url));
const SETTINGS = `# kept\n[[mcp.servers]]\nname = "proto"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(PROTOCOL)}]\nsandbox = false\n`;

let running: InProcessDaemon;
let file: string;
let id: string;

beforeAll(async () => {
  running = await startInProcessDaemon('blitz-tools', SETTINGS);
  file = path.join(running.home, 'settings.toml');
  id = (await running.client.openWorkspace(running.workspace)).id;
  await running.client.listWorkspaceServers(id, { connect: true });
});
afterAll(() => running.stop());

async function post(pathname: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await running.daemon.request(pathname, {
    method: 'POST',
    headers: { authorization: `Bearer ${running.daemon.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function detail(): Promise<WorkspaceServerDetail> {
  await running.client.listWorkspaceServers(id, { connect: true });
  const response = await running.daemon.request(`/v1/workspaces/${id}/mcp-servers/proto`, {
    headers: { authorization: `Bearer ${running.daemon.token}` },
  });
  return (await response.json()) as WorkspaceServerDetail;
}

describe('a tool switched and approved through the control API', () => {
  it('switches one tool off through the tools allow-list (the others written out), and on again (the list taken out)', async () => {
    expect((await detail()).exposedTools.map((t) => t.originalName)).toContain('log');
    expect((await post('/v1/config/mcp-servers/proto/tools/log/enabled', { enabled: false })).status).toBe(200);
    expect(fs.readFileSync(file, 'utf8')).toContain('tools = ["describe", "progress", "touch", "upstream"]');
    const off = await detail();
    expect(off.exposedTools.map((t) => t.originalName)).not.toContain('log');
    expect(off.otherTools).toEqual([expect.objectContaining({ originalName: 'log', inAllowList: false })]);
    await post('/v1/config/mcp-servers/proto/tools/log/enabled', { enabled: true });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('tools =');
    expect(text.startsWith('# kept\n')).toBe(true);
    expect((await detail()).otherTools).toEqual([]);
  });

  it('sets one tool’s approval as its own rule in [permissions], moving it between allow and deny, and ask by taking it out', async () => {
    const approval = async () => (await detail()).exposedTools.find((t) => t.originalName === 'describe')?.approval;
    expect(await approval()).toBe('ask');
    await post('/v1/config/mcp-servers/proto/tools/describe/approval', { approval: 'allow' });
    expect(fs.readFileSync(file, 'utf8')).toMatch(/\[permissions\]\nallow = \["mcp:proto:describe"\]/);
    expect(await approval()).toBe('allow');
    await post('/v1/config/mcp-servers/proto/tools/describe/approval', { approval: 'deny' });
    expect(fs.readFileSync(file, 'utf8')).toMatch(/allow = \[\]\ndeny = \["mcp:proto:describe"\]/);
    expect(await approval()).toBe('deny');
    await post('/v1/config/mcp-servers/proto/tools/describe/approval', { approval: 'ask' });
    expect(fs.readFileSync(file, 'utf8')).not.toContain('mcp:proto:describe');
    expect(await approval()).toBe('ask');
  });

  it('refuses a body that is not a switch or an approval, and a server not in settings.toml', async () => {
    expect(await post('/v1/config/mcp-servers/proto/tools/log/enabled', { enabled: 'yes' })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_ARGUMENT' },
    });
    expect(await post('/v1/config/mcp-servers/proto/tools/log/approval', { approval: 'always' })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_ARGUMENT' },
    });
    expect(await post('/v1/config/mcp-servers/nope/tools/log/approval', { approval: 'allow' })).toMatchObject({
      status: 404,
      body: { reason: 'MCP_SERVER_NOT_FOUND' },
    });
  });
});
