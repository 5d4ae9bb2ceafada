import { describe, expect, it } from 'vitest';
import { isTaskCreated, toolCallAnswer } from './tool-task.js';

describe('toolCallAnswer', () => {
  it('reads a task as one, and anything else as a tool result, which it must be', () => {
    const task = { resultType: 'task', taskId: 't1', status: 'working' };
    expect(toolCallAnswer(task)).toEqual(task);
    expect(isTaskCreated(toolCallAnswer(task))).toBe(true);
    expect(toolCallAnswer({ content: [{ type: 'text', text: 'hi' }] })).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    // resultType task without an id is no task.
    expect(isTaskCreated({ resultType: 'task' })).toBe(false);
    expect(() => toolCallAnswer({ content: 'not a list' })).toThrow();
  });
});
