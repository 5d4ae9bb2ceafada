import fs from 'node:fs';
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeBubblewrap } from '@blitz/core';
import { fixtureCommand } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';

let home: string;
let workspace: string;
let daemon: RunningDaemon | undefined;

beforeEach(() => {
  home = tempDir('blitz-causes-');
  workspace = tempDir('blitz-causes-ws-');
});

afterEach(async () => {
  if (daemon) await daemon.stop();
  daemon = undefined;
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

/** A port on 127.0.0.1 that nothing listens on: taken, then let go. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const sandboxed = probeBubblewrap().ok;

describe('one vocabulary of causes and remedies (issue 29.2)', () => {
  it('a command not on PATH and a refused remote say why and what to do: in the status, the notice, mcp list and doctor', async () => {
    const port = await closedPort();
    // Sandboxed where bubblewrap runs: it, not the command, is what would fail ("bwrap: execvp …").
    writeSettings(
      home,
      `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "bad-command"\ncommand = "nonexistent-mcp-server"\nsandbox = ${sandboxed}\n\n` +
        `[[mcp.servers]]\nname = "remote-docs"\nurl = "http://127.0.0.1:${port}/mcp"\n`,
    );
    daemon = await startDaemonProcess(home);
    const ws = await daemon.client.openWorkspace(workspace);
    await daemon.client.listWorkspaceServers(ws.id, { connect: true });
    await expect
      .poll(async () => (await daemon!.client.status()).servers.map((s) => s.state), { timeout: 15_000 })
      .toEqual(['failed', 'failed']);

    const status = await daemon.client.status();
    const [command, remote] = status.servers;
    expect(command).toMatchObject({
      causeCode: 'COMMAND_NOT_FOUND',
      cause: 'nonexistent-mcp-server is not on PATH',
      remedy: 'install it, or give its full path',
    });
    expect(command!.error).not.toContain('bwrap');
    expect(remote).toMatchObject({
      causeCode: 'CONNECTION_REFUSED',
      cause: `connection refused at 127.0.0.1:${port}`,
      remedy: 'is the server running? Start it, or fix its url',
    });
    // The workspace's view carries the same fields, for the page's detail.
    const inWorkspace = await daemon.client.listWorkspaceServers(ws.id);
    expect(inWorkspace.find((s) => s.name === 'remote-docs')).toMatchObject({ causeCode: 'CONNECTION_REFUSED', cause: remote!.cause });

    // A notice names the server once, and carries the same words.
    const failed = status.notices.find((n) => n.server === 'remote-docs' && n.kind === 'failed')!;
    expect(failed).toMatchObject({ causeCode: 'CONNECTION_REFUSED', cause: remote!.cause, remedy: remote!.remedy });
    expect(failed.message).toBe(
      `MCP server remote-docs failed: connection refused at 127.0.0.1:${port}; is the server running? Start it, or fix its url`,
    );

    const list = (await runBlitz(['mcp', 'list'], { home })).stdout.split('\n');
    expect(list.find((l) => l.startsWith('bad-command'))).toMatch(
      /failed: nonexistent-mcp-server is not on PATH; install it, or give its full path$/,
    );
    expect(list.find((l) => l.startsWith('remote-docs'))).toMatch(
      new RegExp(`failed: connection refused at 127\\.0\\.0\\.1:${port}; is the server running\\? Start it, or fix its url$`),
    );

    const doctor = await runBlitz(['doctor', '--online'], { home });
    expect(doctor.stdout).toContain(
      'FAIL  command of bad-command: nonexistent-mcp-server is not on PATH; install it, or give its full path\n',
    );
    expect(doctor.stdout).toContain('FAIL  bad-command: nonexistent-mcp-server is not on PATH; install it, or give its full path\n');
    expect(doctor.stdout).toContain(
      `FAIL  remote-docs: connection refused at 127.0.0.1:${port}; is the server running? Start it, or fix its url\n`,
    );
  });
});

describe('the notice feed (issue 29.3)', () => {
  it('one event seen by two workspaces is one entry naming both; an edit that fixes the server marks it resolved', async () => {
    const port = await closedPort();
    writeSettings(home, `[daemon]\nport = 0\n\n[[mcp.servers]]\nname = "remote-docs"\nurl = "http://127.0.0.1:${port}/mcp"\n`);
    daemon = await startDaemonProcess(home);
    const other = tempDir('blitz-causes-ws2-');
    try {
      const roots = [fs.realpathSync(workspace), fs.realpathSync(other)];
      for (const root of roots) {
        const ws = await daemon.client.openWorkspace(root);
        await daemon.client.listWorkspaceServers(ws.id, { connect: true });
      }
      const failures = async () => (await daemon!.client.status()).notices.filter((n) => n.server === 'remote-docs' && n.kind === 'failed');
      await expect.poll(async () => (await failures())[0]?.workspaces?.length, { timeout: 15_000 }).toBe(2);
      const [entry, ...more] = await failures();
      expect(more).toEqual([]);
      expect([...entry!.workspaces!].sort()).toEqual([...roots].sort());
      expect(entry!.resolved).toBeUndefined();

      // The fix: the entry now names a server that works; each workspace restarts it.
      const { command, args } = fixtureCommand('env-dump');
      await daemon.client.saveServer({ name: 'remote-docs', command, args, sandbox: false }, 'remote-docs');
      // An edited server starts at its next use: a client lists the workspace's tools.
      const [ws] = await daemon.client.listWorkspaces();
      await daemon.client.listWorkspaceServers(ws!.id, { connect: true });
      await expect.poll(async () => (await daemon!.client.status()).servers[0]?.state, { timeout: 15_000 }).toBe('connected');
      await expect.poll(async () => (await failures())[0]?.resolved, { timeout: 15_000 }).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(await failures()).toHaveLength(1);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
