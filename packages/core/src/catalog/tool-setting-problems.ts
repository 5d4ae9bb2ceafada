import type { Problem } from '../config/problem.js';
import type { ServerConfig } from '../config/server-config.js';
import { unmatchedField, unmatchedMessage, unmatchedSettings } from './unmatched-settings.js';

/**
 * What a server's tool settings name that its tools do not (a warning each, known only once it
 * has listed them): a `tools` entry it does not offer, a `tool_exposure` key matching none.
 * `line` finds a field's line in the server's file, when the caller has its text.
 */
export function toolSettingProblems(
  config: ServerConfig,
  offered: readonly string[],
  line: (field: string) => number | undefined = () => undefined,
): Problem[] {
  return unmatchedSettings(offered, config.tools, config.toolExposure).map((setting) => {
    const field = unmatchedField(setting);
    const at = line(field);
    return {
      severity: 'warning',
      file: config.source.file,
      ...(at === undefined ? {} : { line: at }),
      server: config.name,
      field,
      message: unmatchedMessage(setting),
    };
  });
}
