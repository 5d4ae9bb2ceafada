import { BlitzError } from '../errors/blitz-error.js';

/** Node's codes for a write the disk (or the user's quota on it) has no room for. */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT']);

/**
 * The error a write that found no room becomes, naming the file it was for; undefined for
 * any other error. Callers have removed what they wrote first: the message says nothing changed.
 */
export function noSpaceError(err: unknown, file: string): BlitzError | undefined {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined;
  if (code === undefined || !NO_ROOM.has(code)) return undefined;
  return new BlitzError('NO_SPACE', `no space left on the disk holding ${file}; nothing was changed`, {
    reason: code === 'EDQUOT' ? 'DISK_QUOTA' : 'NO_SPACE',
    cause: err,
  });
}
