import { describe, expect, it } from 'vitest';
import { indexWords, nameKey, splitWords } from './words.js';

describe('splitWords', () => {
  it('splits on _ - . / and spaces', () => {
    expect(splitWords('browser_take-screenshot.v2/now please')).toEqual(['browser', 'take', 'screenshot', 'v2', 'now', 'please']);
  });

  it('splits camelCase and acronyms before a word', () => {
    expect(splitWords('getUserById')).toEqual(['get', 'user', 'by', 'id']);
    expect(splitWords('HTTPServerURL')).toEqual(['http', 'server', 'url']);
    expect(splitWords('listS3Buckets')).toEqual(['list', 's3', 'buckets']);
  });

  it('keeps letters outside ASCII', () => {
    expect(splitWords('créer_fichier')).toEqual(['créer', 'fichier']);
  });
});

describe('indexWords', () => {
  it('keeps a word written in humps whole beside its parts, so "github" meets "GitHub"', () => {
    expect(indexWords('a GitHub repository')).toEqual(['a', 'git', 'hub', 'repository', 'github']);
    expect(indexWords('move_file')).toEqual(['move', 'file']);
  });
});

describe('nameKey', () => {
  it('makes snake, kebab, camel and spaced names one key', () => {
    expect(new Set(['move_file', 'move-file', 'moveFile', 'Move File'].map(nameKey))).toEqual(new Set(['move file']));
  });
});
