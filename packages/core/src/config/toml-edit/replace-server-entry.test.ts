import { describe, expect, it } from 'vitest';
import { replaceServerEntry } from './replace-server-entry.js';

const text = '# kept\n[[mcp.servers]]\nname = "a" # lost\ncommand = "x"\n[mcp.servers.env]\nK = "v"\n\n[hub]\n';

describe('replaceServerEntry', () => {
  it('writes the entry afresh in place, keeping the comment above', () => {
    expect(replaceServerEntry(text, 'a', { name: 'a', command: 'y', env: { K: 'w' } })).toBe(
      '# kept\n[[mcp.servers]]\nname = "a"\ncommand = "y"\nenv = { K = "w" }\n\n[hub]\n',
    );
  });

  it('renames through entry.name', () => {
    expect(replaceServerEntry(text, 'a', { name: 'b', url: 'https://x' })).toBe(
      '# kept\n[[mcp.servers]]\nname = "b"\nurl = "https://x"\n\n[hub]\n',
    );
  });

  it('refuses to rename onto another entry', () => {
    const two = `${text}[[mcp.servers]]\nname = "b"\n`;
    expect(() => replaceServerEntry(two, 'a', { name: 'b' })).toThrow(expect.objectContaining({ code: 'ALREADY_EXISTS' }));
  });
});
