import { describe, expect, it } from 'vitest';
import { formatProblem } from '../config/problem.js';
import { parseSettings } from '../config/settings.js';
import { toolSettingProblems } from './tool-setting-problems.js';

const FILE = '/home/u/.config/blitz/settings.toml';

describe('toolSettingProblems', () => {
  it('names file, line, server and field of a tools entry the server does not offer and a tool_exposure key matching none of its tools', () => {
    const text =
      '[[mcp.servers]]\nname = "a"\ncommand = "x"\n\n[[mcp.servers]]\nname = "gh"\ncommand = "y"\ntools = ["search_code", "gone"]\n' +
      '[mcp.servers.tool_exposure]\n"issue_*" = "deferred"\n"pr_*" = "hidden"\nsearch_code = "direct"\n';
    const { settings, problems, serverLine } = parseSettings(text, FILE);
    expect(problems).toEqual([]);
    const found = toolSettingProblems(settings.servers[1]!, ['search_code', 'issue_read'], (field) => serverLine('gh', field));
    expect(found.map(formatProblem)).toEqual([
      `${FILE}:8: warning: server "gh", field "tools": lists "gone", which the server does not offer`,
      `${FILE}:11: warning: server "gh", field "tool_exposure.pr_*": matches no tool the server offers`,
    ]);
    expect(toolSettingProblems(settings.servers[0]!, ['anything'])).toEqual([]);
  });

  it('an inline tool_exposure table is named by its own line; with no text, by file and server alone', () => {
    const text = '[[mcp.servers]]\nname = "gh"\ncommand = "y"\ntool_exposure = { "pr_*" = "hidden" }\n';
    const { settings, serverLine } = parseSettings(text, FILE);
    const server = settings.servers[0]!;
    expect(serverLine('nobody', 'tool_exposure')).toBeUndefined();
    expect(toolSettingProblems(server, ['x'], (field) => serverLine('gh', field)).map(formatProblem)).toEqual([
      `${FILE}:4: warning: server "gh", field "tool_exposure.pr_*": matches no tool the server offers`,
    ]);
    expect(toolSettingProblems(server, ['x']).map(formatProblem)).toEqual([
      `${FILE}: warning: server "gh", field "tool_exposure.pr_*": matches no tool the server offers`,
    ]);
  });
});
