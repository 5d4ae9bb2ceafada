import { describe, expect, it } from 'vitest';
import { editorRefs } from './editor-refs.js';

function convert(platform: NodeJS.Platform, text: string): { text: string; warnings: string[] } {
  const warnings: string[] = [];
  return { text: editorRefs('VS Code', platform)(text, 'args[0]', (w) => warnings.push(w)), warnings };
}

describe('editorRefs, per platform', () => {
  it("imports the editor's home as the variable that holds it there: HOME, USERPROFILE on Windows", () => {
    expect(convert('linux', '--home=${userHome}/x').text).toBe('--home=${HOME}/x');
    expect(convert('darwin', '${userHome}').text).toBe('${HOME}');
    expect(convert('win32', '--home=${userHome}\\x')).toEqual({
      text: '--home=${USERPROFILE}\\x',
      warnings: ['args[0] holds ${userHome}, a VS Code variable: imported as ${USERPROFILE}'],
    });
  });

  it("imports the path separator as that platform's", () => {
    expect(convert('linux', 'a${/}b${pathSeparator}c').text).toBe('a/b/c');
    expect(convert('win32', 'a${/}b${pathSeparator}c').text).toBe('a\\b\\c');
  });
});
