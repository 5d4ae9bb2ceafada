import { causeLine, checkCommand, explainCause, sandboxWarning, type ServerConfig } from '@blitz/core';
import type { DaemonEnvironment } from '@blitz/client';

/**
 * What a save through the control API answers besides "saved" (issue 26.5): the server's
 * command not found where this daemon looks for it, or no sandbox here for it. `blitz doctor`
 * says the same (checkCommand, sandboxWarning); the entry is saved regardless.
 */
export function saveWarnings(server: ServerConfig, where: DaemonEnvironment): string[] {
  const t = server.transport;
  if (server.disabled || t.kind !== 'stdio') return [];
  const check = checkCommand(t.command, where);
  const command =
    check.kind === 'notFound' ? [causeLine(explainCause(server.name, { code: 'COMMAND_NOT_FOUND', command: t.command }))] : [];
  const sandbox = server.sandbox ? sandboxWarning([server.name], where.path, where.platform as NodeJS.Platform) : undefined;
  return sandbox === undefined ? command : [...command, sandbox];
}
