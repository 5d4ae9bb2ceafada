import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { describe, expect, it } from 'vitest';
import { addInstructions } from './initialize-instructions.js';

async function connect(server: Server, name: string): Promise<Client> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name, version: '1' });
  await Promise.all([server.connect(a), client.connect(b)]);
  return client;
}

describe('addInstructions', () => {
  it('answers instructions chosen by the client name, keeping the rest of the answer', async () => {
    const server = new Server({ name: 'hub', version: '1' }, { capabilities: { tools: {} }, instructions: 'Base.' });
    addInstructions(server, (name) => (name === 'vscode' ? `Base.\n\nHello ${name}.` : undefined));
    const client = await connect(server, 'vscode');
    expect(client.getInstructions()).toBe('Base.\n\nHello vscode.');
    expect(client.getServerCapabilities()).toEqual({ tools: {} });
    expect(server.getClientVersion()).toEqual({ name: 'vscode', version: '1' });

    const other = new Server({ name: 'hub', version: '1' }, { capabilities: {}, instructions: 'Base.' });
    addInstructions(other, () => undefined);
    expect((await connect(other, 'cli')).getInstructions()).toBe('Base.');
  });
});
