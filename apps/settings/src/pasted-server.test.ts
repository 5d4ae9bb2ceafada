import { describe, expect, it } from 'vitest';
import { readPastedServer } from './pasted-server.js';

describe('readPastedServer', () => {
  it('reads a README’s mcpServers block: the first server, the others named', () => {
    const text = JSON.stringify({
      mcpServers: {
        github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'x' } },
        fs: { command: 'npx' },
      },
    });
    expect(readPastedServer(text)).toEqual({
      name: 'github',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_TOKEN: 'x' },
      ignored: [],
      others: ['fs'],
    });
  });

  it('reads VS Code’s servers, an HTTP entry with its type and headers, and names what it leaves out', () => {
    const text =
      '{"servers": {"docs": {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"X-Key": "k"}, "alwaysAllow": ["a"]}}}';
    expect(readPastedServer(text)).toEqual({
      name: 'docs',
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { 'X-Key': 'k' },
      ignored: ['alwaysAllow'],
      others: [],
    });
  });

  it('reads one entry alone, and a "name": {…} fragment without its outer braces', () => {
    expect(readPastedServer('{"command": "uvx", "args": ["mcp-server-time"]}')).toEqual({
      transport: 'stdio',
      command: 'uvx',
      args: ['mcp-server-time'],
      ignored: [],
      others: [],
    });
    expect(readPastedServer('"time": {"command": "uvx", "args": ["mcp-server-time"]},')).toMatchObject({ name: 'time', command: 'uvx' });
    expect(readPastedServer('{"remote": {"serverUrl": "https://x.example/mcp"}}')).toMatchObject({
      name: 'remote',
      transport: 'http',
      url: 'https://x.example/mcp',
    });
  });

  it('says plainly what is wrong with text that holds no server', () => {
    expect(readPastedServer('npx -y something')).toEqual({ error: expect.stringContaining('not JSON') });
    expect(readPastedServer('[1]')).toEqual({ error: expect.stringContaining('not an object') });
    expect(readPastedServer('{"mcpServers": {}}')).toEqual({ error: expect.stringContaining('no server found') });
  });
});
