import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * A server's task in lieu of a tool's result (the tasks extension of 2026-07-28): its `taskId`,
 * status and times, which the client follows with `tasks/get`, `tasks/update` and `tasks/cancel`.
 */
export interface TaskCreated {
  resultType: 'task';
  taskId: string;
  [field: string]: unknown;
}

/** What a tool call comes to: its result, or, for a client that declares the tasks extension, a task. */
export type ToolCallAnswer = CallToolResult | TaskCreated;

export function isTaskCreated(answer: unknown): answer is TaskCreated {
  const result = answer as { resultType?: unknown; taskId?: unknown } | undefined;
  return result?.resultType === 'task' && typeof result.taskId === 'string';
}

/** A `tools/call` answer read as a task when it says it is one, else as a tool's result (which must be one). */
export function toolCallAnswer(result: unknown): ToolCallAnswer {
  return isTaskCreated(result) ? result : CallToolResultSchema.parse(result);
}
