import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** Each tool's JSON, made once: a catalog's tool objects are shared by every session listing them. */
const texts = new WeakMap<Tool, string>();

function textOf(tool: Tool): string {
  let text = texts.get(tool);
  if (text === undefined) texts.set(tool, (text = JSON.stringify(tool)));
  return text;
}

/**
 * Whether a client shown `a` would see the same list in `b`: the same tools in the same
 * order, field for field. The same objects compare at once; a rebuilt catalog's by their
 * JSON, written once per tool, not once per session.
 */
export function sameTools(a: readonly Tool[], b: readonly Tool[]): boolean {
  return a.length === b.length && a.every((tool, i) => tool === b[i] || textOf(tool) === textOf(b[i]!));
}
