import { describe, expect, it } from 'vitest';
import { checkInputResponses, inputKey, type Asked } from './input-responses.js';

const open = new Map<string, Asked>([
  ['elicitation_1', { id: 'a', method: 'elicitation/create', params: {} }],
  ['sampling_1', { id: 'b', method: 'sampling/createMessage', params: {} }],
  ['roots_1', { id: 'c', method: 'roots/list', params: {} }],
]);

describe('checkInputResponses', () => {
  it('takes the answers naming open questions and ignores other keys', () => {
    const checked = checkInputResponses(
      {
        elicitation_1: { action: 'accept', content: { name: 'Alice' } },
        roots_1: { roots: [{ uri: 'file:///r' }] },
        unknown: { anything: true },
      },
      open,
    );
    expect('answers' in checked && [...checked.answers.keys()]).toEqual(['elicitation_1', 'roots_1']);
  });

  it.each([
    ['null', null, 'must be an object'],
    ['an array', [], 'must be an object'],
    ['an entry that is a number', { elicitation_1: 12345 }, 'inputResponses["elicitation_1"] must be an object'],
    ['an elicitation answer without action', { elicitation_1: { content: {} } }, 'not a elicitation/create result'],
    ['a sampling answer without content', { sampling_1: { role: 'assistant', model: 'm' } }, 'not a sampling/createMessage result'],
    ['roots that are not a list', { roots_1: { roots: 'x' } }, 'not a roots/list result'],
  ])('refuses %s', (_, responses, message) => {
    expect(checkInputResponses(responses, open)).toEqual({ invalid: expect.stringContaining(message) });
  });

  it('numbers keys by kind', () => {
    expect(inputKey('elicitation/create', open)).toBe('elicitation_2');
    expect(inputKey('roots/list', new Map())).toBe('roots_1');
  });
});
