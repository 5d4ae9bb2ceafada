import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** What a tool says of itself to a model: the fields a pin covers (issue 31). */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

/** The fields of a tool that are pinned, in the order a review shows them. */
export const DEFINITION_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/** A tool's definition: its pinned fields, those it has (`_meta`, `icons` and the like are not what a model is told). */
export function toolDefinition(tool: Tool): ToolDefinition {
  const definition: ToolDefinition = { name: tool.name };
  for (const field of DEFINITION_FIELDS) {
    const value = (tool as Record<string, unknown>)[field];
    if (field !== 'name' && value !== undefined) (definition as unknown as Record<string, unknown>)[field] = value;
  }
  return definition;
}

/** JSON with every object's keys sorted and undefined members left out: one text for one content, whatever order a server lists fields in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The SHA-256 of a definition's canonical JSON: what a pin compares. */
export function definitionFingerprint(definition: ToolDefinition): string {
  return createHash('sha256').update(canonicalJson(definition)).digest('hex');
}
