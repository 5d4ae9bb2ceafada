import { isTable } from '@blitz/core';
import type { ClientSpec } from '../client-spec.js';
import { SkipServer } from '../fields.js';
import { convertRefs, keepRefs, mapJsonServer, mapping, readStdio } from '../map-server.js';
import { Fields } from '../fields.js';
import { join, xdgConfigDir } from '../where.js';

/**
 * Zed's settings.json — the whole editor's settings, JSONC — with servers under
 * `context_servers`. Older Zed nested the command (`"command": { "path", "args", "env" }`);
 * servers from extensions (`"source": "extension"`) are run by Zed itself.
 */
export const zed: ClientSpec = {
  id: 'zed',
  title: 'Zed',
  clientInfoName: 'Zed',
  format: 'json',
  serversKey: ['context_servers'],
  userFiles: (where) => [
    where.platform === 'win32'
      ? join(where, where.env.APPDATA ?? join(where, where.home, 'AppData', 'Roaming'), 'Zed', 'settings.json')
      : join(where, xdgConfigDir(where), 'zed', 'settings.json'),
  ],
  projectFiles: ['.zed/settings.json'],
  fromClient: (name, raw) => {
    if (
      isTable(raw) &&
      (raw.source === 'extension' || (raw.command === undefined && raw.url === undefined && raw.settings !== undefined))
    ) {
      return { kind: 'skipped', reason: 'is provided by a Zed extension, which only Zed can run' };
    }
    if (isTable(raw) && isTable(raw.command)) return mapNested(name, raw);
    return mapJsonServer(name, raw, {
      urlKeys: ['url'],
      types: {},
      refs: keepRefs,
      extra: (fields, entry) => {
        if (fields.boolean('enabled') === false) entry.disabled = true;
        fields.ignore('source');
      },
    });
  },
  toClient: (launch) => ({ command: launch.command, args: [...launch.args], env: { ...launch.env } }),
};

function mapNested(name: string, raw: Record<string, unknown>) {
  return mapping(name, raw, (fields, entry, warn) => {
    const inner = fields.raw('command');
    if (!isTable(inner)) throw new SkipServer('command: must be an object');
    const command = new Fields({ ...inner, command: inner.path });
    readStdio(command, entry);
    command.ignore('path');
    for (const key of command.unread()) warn(`command.${key} is not imported (Blitz has no such setting)`);
    if (fields.boolean('enabled') === false) entry.disabled = true;
    fields.ignore('source', 'settings');
    convertRefs(entry, keepRefs, warn);
  });
}
