import type { ClientSpec } from '../client-spec.js';
import { withEnv } from '../launch-fields.js';
import { editorRefs } from '../editor-refs.js';
import { mapJsonServer } from '../map-server.js';
import { join } from '../where.js';

export const cursor: ClientSpec = {
  id: 'cursor',
  title: 'Cursor',
  clientInfoName: 'cursor-vscode',
  format: 'json',
  serversKey: ['mcpServers'],
  userFiles: (where) => [join(where, where.home, '.cursor', 'mcp.json')],
  projectFiles: ['.cursor/mcp.json'],
  // A URL without a type is streamable HTTP (Cursor falls back to SSE on its own).
  fromClient: (name, raw) =>
    mapJsonServer(name, raw, {
      urlKeys: ['url'],
      types: { stdio: 'stdio', http: 'http', streamableHttp: 'http', sse: 'sse' },
      refs: editorRefs('Cursor'),
    }),
  toClient: (launch) => ({ command: launch.command, args: [...launch.args], ...withEnv(launch) }),
};
