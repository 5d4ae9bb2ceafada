import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'vitest';

/**
 * Connects to `blitz connect` as `server` describes it, waits for `search_tools` to be offered,
 * and answers the name of the first tool it finds for `query`: whether the word-vector tables a
 * build makes are found where that `blitz` runs from.
 */
export async function firstSearchHit(server: StdioServerParameters, query: string): Promise<string | undefined> {
  const client = new Client({ name: 'install-test', version: '1' });
  try {
    await client.connect(new StdioClientTransport({ ...server, stderr: 'pipe' }));
    await expect.poll(async () => (await client.listTools()).tools.map((t) => t.name), { timeout: 20_000 }).toContain('search_tools');
    const found = (await client.callTool({ name: 'search_tools', arguments: { query, limit: 3 } })).structuredContent as {
      tools: { name: string }[];
    };
    return found.tools[0]?.name;
  } finally {
    await client.close();
  }
}
