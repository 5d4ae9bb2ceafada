import { formatProblem, hasErrors, loadSettings, type ParsedSettings, type Settings } from '@blitz/core';
import { CliError, type CliContext } from './context.js';

/**
 * Loads settings for a command: warnings go to stderr, and any error stops the command
 * with every problem listed (MCP-01).
 */
export function loadSettingsOrFail(ctx: CliContext): Settings {
  return loadParsedSettingsOrFail(ctx).settings;
}

/** The same, with where each server is written, for problems that name its line. */
export function loadParsedSettingsOrFail(ctx: CliContext): ParsedSettings {
  const parsed = loadSettings(ctx.paths.settings);
  const { problems } = parsed;
  for (const p of problems) if (p.severity === 'warning') ctx.err(formatProblem(p));
  if (hasErrors(problems)) {
    const errors = problems.filter((p) => p.severity === 'error').map(formatProblem);
    throw new CliError(
      `${ctx.paths.settings} has ${errors.length === 1 ? 'a problem' : `${errors.length} problems`}; nothing was changed:\n  ${errors.join('\n  ')}`,
    );
  }
  return parsed;
}
