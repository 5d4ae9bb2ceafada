/** The fields of a server's status that say why it fails (`GlobalServerStatus`, `WorkspaceServer`). */
interface Failing {
  error?: string;
  cause?: string;
  remedy?: string;
}

/** Why a server fails and what to do, in the daemon's words (issue 29.2); the raw error from a daemon without them. */
export function problemText(status: Failing): string | undefined {
  if (status.cause === undefined) return status.error;
  return status.remedy === undefined ? status.cause : `${status.cause}; ${status.remedy}`;
}
