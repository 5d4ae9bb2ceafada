import { readTextFileSync, SETTINGS_FILE_MAX_BYTES } from '../files/index.js';
import { emptySettings, NO_SERVER_LINES, parseSettings, type ParsedSettings } from './settings.js';

/**
 * Reads and validates settings.toml; a missing file is empty settings, not a problem. Only a
 * regular file of at most 8 MB in valid UTF-8 is read: anything else is a problem naming the
 * file (and, for bad UTF-8, the line), and the settings it would have held are not used.
 */
export function loadSettings(file: string): ParsedSettings & { text: string } {
  const read = readTextFileSync(file, { maxBytes: SETTINGS_FILE_MAX_BYTES });
  switch (read.kind) {
    case 'missing':
      return { settings: emptySettings(), problems: [], serverLine: NO_SERVER_LINES, text: '' };
    case 'refused':
      return {
        settings: emptySettings(),
        problems: [{ severity: 'error', file, ...(read.line === undefined ? {} : { line: read.line }), message: read.message }],
        serverLine: NO_SERVER_LINES,
        text: '',
      };
    case 'text':
      return { ...parseSettings(read.text, file), text: read.text };
    default: {
      const _exhaustive: never = read;
      return _exhaustive;
    }
  }
}
