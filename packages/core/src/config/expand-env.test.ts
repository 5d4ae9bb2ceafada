import { describe, expect, it } from 'vitest';
import { expandEnv } from './expand-env.js';

const env = { HOME: '/home/u', EMPTY: '', TOKEN: 'abc', NESTED: '${TOKEN}', DOLLAR: '$HOME' };

describe('expandEnv', () => {
  it.each([
    ['plain text', 'no refs', 'no refs', []],
    ['${VAR}', '${HOME}/bin', '/home/u/bin', []],
    ['${env:VAR}', '${env:HOME}', '/home/u', []],
    ['several', '${TOKEN}-${HOME}', 'abc-/home/u', []],
    ['default unused when set', '${TOKEN:-x}', 'abc', []],
    ['default when unset', '${NOPE:-fallback}', 'fallback', []],
    ['empty default', '${NOPE:-}', '', []],
    ['empty stays empty', '${EMPTY:-fallback}', '', []],
    ['default is not expanded again', '${NOPE:-${HOME}', '${HOME', []],
    ['a value is not expanded again', '${NESTED}', '${TOKEN}', []],
    ['no shell: $VAR stays', '$HOME and $(whoami)', '$HOME and $(whoami)', []],
    ['values are used literally', '${DOLLAR}', '$HOME', []],
    ['missing is named and left', 'Bearer ${NOPE}', 'Bearer ${NOPE}', ['NOPE']],
    ['each missing is named', '${A1}${B2}', '${A1}${B2}', ['A1', 'B2']],
    ['not a variable name', '${1X}', '${1X}', []],
  ])('%s', (_, text, value, missing) => {
    expect(expandEnv(text, env)).toEqual({ value, missing });
  });
});
