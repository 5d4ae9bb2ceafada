import fs from 'node:fs';
import { emptySettings, parseSettings, type ParsedSettings } from './settings.js';

/** Reads and validates settings.toml; a missing file is empty settings, not a problem. */
export function loadSettings(file: string): ParsedSettings & { text: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { settings: emptySettings(), problems: [], text: '' };
    return {
      settings: emptySettings(),
      problems: [{ severity: 'error', file, message: `cannot be read: ${(err as Error).message}` }],
      text: '',
    };
  }
  return { ...parseSettings(text, file), text };
}
