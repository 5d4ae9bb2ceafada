/** How a client starts Blitz: `blitz connect`, with `BLITZ_HOME` when it is not the default. */
export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface ClientSnippet {
  id: string;
  title: string;
  /** Where it goes, as people find the file. */
  where: string;
  /** `shell`: a command to run; otherwise the file's format. */
  language: 'json' | 'toml' | 'shell';
  text: string;
}

const withEnv = (launch: Launch) => (Object.keys(launch.env).length > 0 ? { env: { ...launch.env } } : {});

/**
 * The `blitz` entry of each client Blitz knows, to copy by hand (issue 29.9): the shapes of
 * `toClient` in packages/clients' specs, which `blitz clients connect` writes (the page runs
 * in a browser and cannot load that package; test/settings/client-snippets.test.ts holds
 * the two to the same entries).
 */
export function clientSnippets(launch: Launch): ClientSnippet[] {
  const plain = { command: launch.command, args: [...launch.args], ...withEnv(launch) };
  const json = (key: string, entry: unknown) => JSON.stringify({ [key]: { blitz: entry } }, null, 2);
  const envFlags = Object.entries(launch.env).map(([k, v]) => ` -e ${k}=${shellQuote(v)}`);
  return [
    {
      id: 'claude-code',
      title: 'Claude Code',
      where: 'run in a terminal',
      language: 'shell',
      text: `claude mcp add --scope user${envFlags.join('')} blitz -- ${[launch.command, ...launch.args].map(shellQuote).join(' ')}`,
    },
    {
      id: 'claude-desktop',
      title: 'Claude Desktop',
      where: 'claude_desktop_config.json',
      language: 'json',
      text: json('mcpServers', plain),
    },
    { id: 'cursor', title: 'Cursor', where: '~/.cursor/mcp.json', language: 'json', text: json('mcpServers', plain) },
    {
      id: 'vscode',
      title: 'VS Code',
      where: 'Code/User/mcp.json',
      language: 'json',
      text: json('servers', { type: 'stdio', ...plain }),
    },
    { id: 'windsurf', title: 'Windsurf', where: '~/.codeium/windsurf/mcp_config.json', language: 'json', text: json('mcpServers', plain) },
    {
      id: 'codex',
      title: 'Codex',
      where: '~/.codex/config.toml',
      language: 'toml',
      text: [
        '[mcp_servers.blitz]',
        `command = ${JSON.stringify(launch.command)}`,
        `args = ${JSON.stringify(launch.args).replace(/,/g, ', ')}`,
        ...(Object.keys(launch.env).length > 0
          ? [
              `env = { ${Object.entries(launch.env)
                .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
                .join(', ')} }`,
            ]
          : []),
      ].join('\n'),
    },
    { id: 'gemini', title: 'Gemini CLI', where: '~/.gemini/settings.json', language: 'json', text: json('mcpServers', plain) },
    {
      id: 'zed',
      title: 'Zed',
      where: '~/.config/zed/settings.json',
      language: 'json',
      text: json('context_servers', { command: launch.command, args: [...launch.args], env: { ...launch.env } }),
    },
    {
      id: 'opencode',
      title: 'opencode',
      where: '~/.config/opencode/opencode.json',
      language: 'json',
      text: json('mcp', {
        type: 'local',
        command: [launch.command, ...launch.args],
        ...(Object.keys(launch.env).length > 0 ? { environment: { ...launch.env } } : {}),
        enabled: true,
      }),
    },
  ];
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
