import { expect, it } from 'vitest';
import { clientName } from './index.js';

it('takes a client by its clientInfo name, its id in blitz clients, or the name people use', () => {
  expect(clientName('codex-mcp-client')).toBe('codex-mcp-client');
  expect(clientName('gemini')).toBe('gemini-cli-mcp-client');
  expect(clientName('vscode')).toBe('Visual Studio Code');
  expect(clientName('Claude Code')).toBe('claude-code');
  expect(clientName('vs code')).toBe('Visual Studio Code');
  // Any other name is a clientInfo name Blitz does not know: counted as it is.
  expect(clientName('my-agent')).toBe('my-agent');
});
