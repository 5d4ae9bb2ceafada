import { describe, expect, it } from 'vitest';
import { agentMayUse } from './agent-may-use.js';

describe('agentMayUse', () => {
  it.each<[string[], string, boolean]>([
    [[], 'main', true],
    [[], 'reviewer', false],
    [['*'], 'main', true],
    [['*'], 'reviewer', true],
    [['reviewer', '*'], 'anyone', true],
    [['reviewer'], 'reviewer', true],
    [['reviewer'], 'main', false],
    [['reviewer', 'main'], 'main', true],
    [['Reviewer'], 'reviewer', false],
    [['reviewer'], '*', false],
  ])('agents %j, agent %j → %s', (agents, agent, expected) => {
    expect(agentMayUse(agents, agent)).toBe(expected);
  });
});
