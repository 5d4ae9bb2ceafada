import type { ClientSpec } from '../client-spec.js';
import { withEnv } from '../launch-fields.js';
import { keepRefs, mapJsonServer } from '../map-server.js';
import { appDataDir, join, localAppDataDir, type Where } from '../where.js';

const FILE = 'claude_desktop_config.json';

/**
 * Claude Desktop's config. On Windows the Store/MSIX build reads a virtualised copy under
 * `%LOCALAPPDATA%\Packages\Claude_*\LocalCache\Roaming\Claude`, not `%APPDATA%\Claude`: those
 * come first, but only where the app has made that folder.
 */
function files(where: Where): string[] {
  if (where.platform !== 'win32') return [join(where, appDataDir(where), 'Claude', FILE)];
  const packages = join(where, localAppDataDir(where), 'Packages');
  const msix = where
    .listDir(packages)
    .filter((name) => name.startsWith('Claude_'))
    .sort()
    .map((name) => join(where, packages, name, 'LocalCache', 'Roaming', 'Claude'))
    .filter((dir) => where.listDir(dir).length > 0)
    .map((dir) => join(where, dir, FILE));
  return [...msix, join(where, appDataDir(where), 'Claude', FILE)];
}

export const claudeDesktop: ClientSpec = {
  id: 'claude-desktop',
  title: 'Claude Desktop',
  clientInfoName: 'claude-ai',
  format: 'json',
  serversKey: ['mcpServers'],
  userFiles: files,
  projectFiles: [],
  fromClient: (name, raw) =>
    mapJsonServer(name, raw, { urlKeys: ['url'], types: { stdio: 'stdio', http: 'http', sse: 'sse' }, refs: keepRefs }),
  toClient: (launch) => ({ command: launch.command, args: [...launch.args], ...withEnv(launch) }),
};
