import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverConfig } from '../testing/server-config.js';
import { formatProblem } from './problem.js';
import { readProjectConfig } from './project-config.js';
import { shadowedProblems } from './shadowed-servers.js';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-shadowed-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('shadowedProblems', () => {
  it("names the project file and line of each server that takes a global server's name, and where that one is", () => {
    const file = path.join(root, '.mcp.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ mcpServers: { docs: { command: 'docs-mcp' }, github: { type: 'http', url: 'http://127.0.0.1:9/mcp' } } }, null, 2),
    );
    const project = readProjectConfig(root);
    const global = [
      serverConfig('github', { transport: { kind: 'http', url: 'https://api.example/mcp', headers: {} } }),
      serverConfig('other'),
    ];
    const lines = { github: 7, other: 12 } as Record<string, number>;
    expect(shadowedProblems(global, project, (g) => lines[g.name]).map(formatProblem)).toEqual([
      `${file}:6: warning: server "github": replaces the server of the same name in /settings.toml:7 in this workspace; a sign-in to that server is sent only to its own URL`,
    ]);
    expect(shadowedProblems([serverConfig('other')], project, () => undefined)).toEqual([]);
  });
});
