import { describe, expect, it } from 'vitest';
import { formatProblem } from './problem.js';
import { clientSurface, describeSurface } from './client-surface.js';
import { parseSettings } from './settings.js';

const FILE = '/home/u/.config/blitz/settings.toml';
const problemsOf = (text: string): string[] => parseSettings(text, FILE).problems.map(formatProblem);

describe('exposure settings (issue 16)', () => {
  it("reads a server's exposure and tool_exposure, and leaves exposure unset by default", () => {
    const { settings, problems } = parseSettings(
      '[[mcp.servers]]\nname = "gh"\ncommand = "x"\nexposure = "deferred"\ntool_exposure = { "issue_*" = "hidden", search_code = "direct" }\n\n[[mcp.servers]]\nname = "fs"\ncommand = "y"\n',
      FILE,
    );
    expect(problems).toEqual([]);
    expect(settings.servers[0]).toEqual(
      expect.objectContaining({ exposure: 'deferred', toolExposure: { 'issue_*': 'hidden', search_code: 'direct' } }),
    );
    expect(settings.servers[1]!.exposure).toBeUndefined();
    expect(settings.servers[1]!.toolExposure).toBeUndefined();
  });

  it('names file, line, server and field for an unknown exposure and a bad pattern, and keeps no server', () => {
    const text =
      '[[mcp.servers]]\nname = "gh"\ncommand = "x"\nexposure = "lazy"\n\n[[mcp.servers]]\nname = "fs"\ncommand = "y"\n[mcp.servers.tool_exposure]\n"read file" = "direct"\nwrite = "soon"\n';
    expect(problemsOf(text)).toEqual([
      `${FILE}:4: server "gh", field "exposure": "lazy" is not an exposure: use "direct", "deferred" or "hidden"`,
      `${FILE}:10: server "fs", field "tool_exposure.read file": "read file" is not a tool name or pattern: use letters, digits, ".", "-", "_" and * for any run of characters`,
      `${FILE}:11: server "fs", field "tool_exposure.write": "soon" is not an exposure: use "direct", "deferred" or "hidden"`,
    ]);
    expect(parseSettings(text, FILE).settings.servers).toEqual([]);
  });

  it('reads [hub] deferred, max_tools and per-client limits; defaults are auto and 100', () => {
    const defaults = parseSettings('', FILE).settings.hub;
    expect([defaults.deferred, defaults.maxTools, defaults.clients]).toEqual(['auto', 100, {}]);
    const { settings, problems } = parseSettings(
      '[hub]\ndeferred = "always"\nmax_tools = 40\n\n[hub.clients."Visual Studio Code"]\nmax_tools = 64\n',
      FILE,
    );
    expect(problems).toEqual([]);
    expect(settings.hub).toEqual(
      expect.objectContaining({ deferred: 'always', maxTools: 40, clients: { 'Visual Studio Code': { maxTools: 64 } } }),
    );
  });

  it('refuses an unknown mode and a limit below 1, naming the line', () => {
    expect(
      problemsOf('[hub]\ndeferred = "sometimes"\nmax_tools = 0\n\n[hub.clients."windsurf-client"]\nmax_tools = -3\ncolour = "red"\n'),
    ).toEqual([
      `${FILE}:2: field "hub.deferred": "sometimes" is not a mode: use "auto", "always" or "never"`,
      `${FILE}:3: field "hub.max_tools": must be at least 1, not 0`,
      `${FILE}:6: field "hub.clients."windsurf-client".max_tools": must be at least 1, not -3`,
      `${FILE}:7: warning: field "hub.clients."windsurf-client".colour": is not a known setting and is ignored`,
    ]);
  });

  it('a client is limited by its own setting, then its known cap, then [hub] max_tools', () => {
    const hub = parseSettings('[hub]\nmax_tools = 50\n[hub.clients."Visual Studio Code"]\nmax_tools = 90\n', FILE).settings.hub;
    expect(clientSurface(hub, 'Visual Studio Code')).toEqual({
      deferred: 'auto',
      maxTools: 90,
      because: 'settings: [hub.clients."Visual Studio Code"]',
    });
    expect(clientSurface(hub, 'Visual Studio Code - Insiders')).toEqual({
      deferred: 'auto',
      maxTools: 128,
      because: 'VS Code takes at most 128 tools',
    });
    expect(clientSurface(hub, 'windsurf-client').maxTools).toBe(100);
    expect(clientSurface(hub, 'codex-mcp-client')).toEqual({ deferred: 'auto', maxTools: 50, because: 'settings: [hub]' });
    expect(clientSurface(hub, undefined)).toEqual({ deferred: 'auto', maxTools: 50, because: 'settings: [hub]' });
  });

  it('Claude Code is listed every tool while [hub] deferred is "auto"; its own table or an explicit mode says otherwise (issue 30.3)', () => {
    const surface = (toml: string) => clientSurface(parseSettings(toml, FILE).settings.hub, 'claude-code');
    expect(surface('')).toEqual({ deferred: 'never', maxTools: 100, because: 'Claude Code defers large tool sets itself' });
    expect(surface('[hub]\ndeferred = "auto"\n').deferred).toBe('never');
    expect(surface('[hub]\ndeferred = "always"\n')).toEqual({ deferred: 'always', maxTools: 100, because: 'settings: [hub]' });
    expect(surface('[hub.clients."claude-code"]\ndeferred = "auto"\nmax_tools = 60\n')).toEqual({
      deferred: 'auto',
      maxTools: 60,
      because: 'settings: [hub.clients."claude-code"]',
    });
    expect(describeSurface(surface(''))).toBe('every tool listed');
    expect(describeSurface(surface('[hub.clients."claude-code"]\ndeferred = "auto"\nmax_tools = 60\n'))).toBe(
      'up to 60 tools listed, the rest found with search_tools',
    );
  });

  it('refuses an unknown mode of a client, naming its line', () => {
    expect(problemsOf('[hub.clients."claude-code"]\ndeferred = "later"\n')).toEqual([
      `${FILE}:2: field "hub.clients."claude-code".deferred": "later" is not a mode: use "auto", "always" or "never"`,
    ]);
  });
});
