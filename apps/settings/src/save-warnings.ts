/**
 * What the daemon said when a server was saved (issue 26.5: its command not on PATH, no
 * sandbox here), kept from the form's Save to the server's page it goes to, which shows it once.
 */
const pending = new Map<string, readonly string[]>();

export function keepSaveWarnings(server: string, warnings: readonly string[] | undefined): void {
  if (warnings && warnings.length > 0) pending.set(server, warnings);
  else pending.delete(server);
}

export function takeSaveWarnings(server: string): readonly string[] {
  const found = pending.get(server) ?? [];
  pending.delete(server);
  return found;
}
