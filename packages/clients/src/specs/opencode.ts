import type { ClientSpec } from '../client-spec.js';
import { SkipServer } from '../fields.js';
import { convertRefs, mapping, type RefConverter } from '../map-server.js';
import { join, xdgConfigDir, type Where } from '../where.js';

/** opencode writes `{env:VAR}`; `{file:path}` has no Blitz form. */
const opencodeRefs: RefConverter = (text, field, warn) =>
  text
    .replace(/\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string, at: number) => (text[at - 1] === '$' ? whole : `\${${name}}`))
    .replace(/\{file:[^}]+\}/g, (whole) => {
      warn(`${field} holds ${whole}, a file reference, which Blitz does not read; kept as text`);
      return whole;
    });

/** opencode's global config follows XDG on every platform: `~/.config/opencode/opencode.json[c]`. */
function files(where: Where): string[] {
  const dir = join(where, xdgConfigDir(where), 'opencode');
  return ['opencode.json', 'opencode.jsonc', 'config.json'].map((f) => join(where, dir, f));
}

/** opencode: servers under `mcp`, `type: local` with `command` as one array and `environment`, or `type: remote`. */
export const opencode: ClientSpec = {
  id: 'opencode',
  title: 'opencode',
  clientInfoName: 'opencode',
  format: 'json',
  serversKey: ['mcp'],
  userFiles: files,
  projectFiles: ['opencode.json', 'opencode.jsonc'],
  fromClient: (name, raw) =>
    mapping(name, raw, (fields, entry, warn) => {
      const type = fields.string('type');
      if (type === 'local') {
        const command = fields.strings('command');
        if (command === undefined || command.length === 0 || command[0]!.trim() === '')
          throw new SkipServer('command: must be a non-empty list (the program, then its arguments)');
        entry.command = command[0]!;
        if (command.length > 1) entry.args = command.slice(1);
        const env = fields.stringMap('environment');
        if (env !== undefined && Object.keys(env).length > 0) entry.env = env;
        if (fields.has('url')) throw new SkipServer('has both command and url; a server is either a command (stdio) or a URL (HTTP)');
      } else if (type === 'remote') {
        if (fields.has('command')) throw new SkipServer('has both command and url; a server is either a command (stdio) or a URL (HTTP)');
        const url = fields.string('url');
        if (url === undefined) throw new SkipServer('url: is required for a remote server');
        entry.url = url;
        const headers = fields.stringMap('headers');
        if (headers !== undefined && Object.keys(headers).length > 0) entry.headers = headers;
      } else if (type === undefined) {
        throw new SkipServer('type: is required ("local" or "remote")');
      } else {
        throw new SkipServer(`type: unknown transport type ${JSON.stringify(type)} (opencode has "local" and "remote")`);
      }
      if (fields.boolean('enabled') === false) entry.disabled = true;
      const timeout = fields.number('timeout');
      if (timeout !== undefined) entry.startup_timeout_seconds = Math.max(1, Math.ceil(timeout / 1000));
      convertRefs(entry, opencodeRefs, warn);
    }),
  toClient: (launch) => ({
    type: 'local',
    command: [launch.command, ...launch.args],
    ...(Object.keys(launch.env).length > 0 ? { environment: { ...launch.env } } : {}),
    enabled: true,
  }),
};
