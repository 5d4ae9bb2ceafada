import type { ClientSpec } from '../client-spec.js';
import { withEnv } from '../launch-fields.js';
import { editorRefs } from '../editor-refs.js';
import { mapJsonServer } from '../map-server.js';
import { join } from '../where.js';

/** Windsurf's `mcp_config.json`: like Claude's, with `serverUrl` for a remote server and `disabled`. */
export const windsurf: ClientSpec = {
  id: 'windsurf',
  title: 'Windsurf',
  clientInfoName: 'windsurf-client',
  format: 'json',
  serversKey: ['mcpServers'],
  userFiles: (where) => [join(where, where.home, '.codeium', 'windsurf', 'mcp_config.json')],
  projectFiles: [],
  fromClient: (name, raw) =>
    mapJsonServer(name, raw, {
      urlKeys: ['serverUrl', 'url'],
      types: { stdio: 'stdio', http: 'http', sse: 'sse' },
      refs: editorRefs('Windsurf'),
      extra: (fields, entry) => {
        if (fields.boolean('disabled') === true) entry.disabled = true;
      },
    }),
  toClient: (launch) => ({ command: launch.command, args: [...launch.args], ...withEnv(launch) }),
};
