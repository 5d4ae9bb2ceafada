import type { Problem } from '../config/problem.js';
import type { ServerConfig } from '../config/server-config.js';
import { unusedOverrides } from './tool-exposure.js';

/**
 * What a server's tool settings name that its tools do not (a warning each, known only once it
 * has listed them): a `tools` entry it does not offer, a `tool_exposure` key matching none.
 * `line` finds a field's line in the server's file, when the caller has its text.
 */
export function toolSettingProblems(config: ServerConfig, offered: readonly string[], line: (field: string) => number | undefined = () => undefined): Problem[] {
  const problem = (field: string, message: string): Problem => {
    const at = line(field);
    return { severity: 'warning', file: config.source.file, ...(at === undefined ? {} : { line: at }), server: config.name, field, message };
  };
  const names = new Set(offered);
  const tools = (config.tools ?? []).filter((t) => !names.has(t)).map((t) => problem('tools', `lists "${t}", which the server does not offer`));
  const exposure = unusedOverrides(offered, config.toolExposure ?? {}).map((key) => problem(`tool_exposure.${key}`, 'matches no tool the server offers'));
  return [...tools, ...exposure];
}
