import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { editPermissionList, withPermissionList } from './edit-permission-list.js';
import { withServerFlag } from './intended-settings.js';
import { setServerFlag } from './set-server-flag.js';

const SERVERS =
  '# mine\n[[mcp.servers]]\nname = "a" # first\ncommand = "x"\n[mcp.servers.env]\nK = "v"\n\n[[mcp.servers]]\nname = "b"\ncommand = "y"\nauto_approve = false # not yet\n';

/** Each edit must read back as its data-side twin says. */
function checked(before: string, after: string, intended: (doc: Record<string, unknown>) => Record<string, unknown>): string {
  expect(parse(after)).toEqual(intended(parse(before) as Record<string, unknown>));
  return after;
}

describe('setServerFlag', () => {
  it('adds auto_approve = true after the last key of the entry, before its sub-tables', () => {
    const after = checked(SERVERS, setServerFlag(SERVERS, 'a', 'auto_approve', true), (d) => withServerFlag(d, 'a', 'auto_approve', true));
    expect(after).toBe(SERVERS.replace('command = "x"\n', 'command = "x"\nauto_approve = true\n'));
  });

  it('sets an existing key, keeping its comment; false without a key changes nothing', () => {
    expect(setServerFlag(SERVERS, 'b', 'auto_approve', true)).toBe(
      SERVERS.replace('auto_approve = false # not yet', 'auto_approve = true # not yet'),
    );
    expect(setServerFlag(SERVERS, 'a', 'auto_approve', false)).toBe(SERVERS);
  });

  it('refuses an unknown server', () => {
    expect(() => setServerFlag(SERVERS, 'nope', 'auto_approve', true)).toThrow(/no MCP server named "nope"/);
  });
});

describe('editPermissionList', () => {
  const withTable = '[permissions] # rules\n# never delete\ndeny = ["mcp:*:delete_*"] # keep\n\n[daemon]\nport = 0\n';

  it("adds the allow key after the table's last key, comments kept", () => {
    const after = checked(withTable, editPermissionList(withTable, 'allow', { add: ['mcp:a:t'] }), (d) =>
      withPermissionList(d, 'allow', { add: ['mcp:a:t'] }),
    );
    expect(after).toBe(
      '[permissions] # rules\n# never delete\ndeny = ["mcp:*:delete_*"] # keep\nallow = ["mcp:a:t"]\n\n[daemon]\nport = 0\n',
    );
  });

  it('rewrites an existing list in place: new patterns last, removed ones gone, its comment kept', () => {
    const text = '[permissions]\nallow = ["mcp:a:x", "mcp:a:y"] # mine\n';
    expect(editPermissionList(text, 'allow', { add: ['mcp:a:z', 'mcp:a:x'], remove: ['mcp:a:y'] })).toBe(
      '[permissions]\nallow = ["mcp:a:x", "mcp:a:z"] # mine\n',
    );
    expect(editPermissionList(text, 'allow', { add: ['mcp:a:x'] })).toBe(text);
  });

  it('appends a [permissions] table to a file without one', () => {
    const after = checked(SERVERS, editPermissionList(SERVERS, 'allow', { add: ['mcp:b:t'] }), (d) =>
      withPermissionList(d, 'allow', { add: ['mcp:b:t'] }),
    );
    expect(after).toBe(`${SERVERS}\n[permissions]\nallow = ["mcp:b:t"]\n`);
    expect(editPermissionList('', 'allow', { add: ['mcp:b:t'] })).toBe('[permissions]\nallow = ["mcp:b:t"]\n');
  });

  it('refuses permissions written as an inline table, unchanged', () => {
    expect(() => editPermissionList('permissions = { deny = [] }\n', 'allow', { add: ['mcp:a:t'] })).toThrow(
      /not written as a \[permissions\] table; edit it by hand/,
    );
  });
});
