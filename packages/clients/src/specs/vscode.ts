import type { ClientSpec } from '../client-spec.js';
import { withEnv } from '../launch-fields.js';
import { editorRefs } from '../editor-refs.js';
import { mapJsonServer } from '../map-server.js';
import { appDataDir, join } from '../where.js';

/** VS Code's user `mcp.json` (JSONC): servers under `servers`, prompts under `inputs`. */
export const vscode: ClientSpec = {
  id: 'vscode',
  title: 'VS Code',
  clientInfoName: 'Visual Studio Code',
  format: 'json',
  serversKey: ['servers'],
  userFiles: (where) => [join(where, appDataDir(where), 'Code', 'User', 'mcp.json')],
  projectFiles: ['.vscode/mcp.json'],
  fromClient: (name, raw) =>
    mapJsonServer(name, raw, {
      urlKeys: ['url'],
      types: { stdio: 'stdio', http: 'http', sse: 'sse' },
      refs: editorRefs('VS Code'),
      extra: (fields, _entry, warn) => {
        if (fields.has('envFile')) {
          fields.ignore('envFile');
          warn('envFile: not imported; put the variables in env instead');
        }
      },
    }),
  toClient: (launch) => ({ type: 'stdio', command: launch.command, args: [...launch.args], ...withEnv(launch) }),
};
