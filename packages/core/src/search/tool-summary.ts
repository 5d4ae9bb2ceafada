import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { firstSentence } from './first-sentence.js';

/** A tool as search_tools answers with it: enough to choose it and call it, not its whole schema. */
export interface ToolSummary {
  name: string;
  server: string;
  /** The first sentence of its description. */
  description?: string;
  /** Its parameters as a signature: `owner: string, repo: string, page?: number`. */
  parameters: string;
}

/** A parameter's type in a word or two: `string`, `number[]`, `"asc" | "desc"`, `object`. */
function typeOf(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return 'any';
  const s = schema as { type?: unknown; enum?: unknown; items?: unknown; anyOf?: unknown; oneOf?: unknown };
  if (Array.isArray(s.enum) && s.enum.length > 0 && s.enum.length <= 6) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.type === 'array') return `${typeOf(s.items)}[]`;
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.type)) return s.type.join(' | ');
  const union = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (union !== undefined) return [...new Set(union.map(typeOf))].join(' | ');
  return 'any';
}

/** `inputSchema`'s top-level parameters as a signature, the required ones first, each as written. */
export function parameterSignature(inputSchema: unknown): string {
  if (typeof inputSchema !== 'object' || inputSchema === null) return '';
  const { properties, required } = inputSchema as { properties?: unknown; required?: unknown };
  if (typeof properties !== 'object' || properties === null) return '';
  const needed = new Set(Array.isArray(required) ? required : []);
  const entries = Object.entries(properties as Record<string, unknown>);
  return [...entries.filter(([n]) => needed.has(n)), ...entries.filter(([n]) => !needed.has(n))]
    .map(([name, schema]) => `${name}${needed.has(name) ? '' : '?'}: ${typeOf(schema)}`)
    .join(', ');
}

/** One found tool's summary: its exposed name, server, first sentence and parameter signature. */
export function toolSummary(entry: { exposedName: string; server: string; tool: Tool }): ToolSummary {
  const description = firstSentence(entry.tool.description ?? entry.tool.title ?? '');
  return {
    name: entry.exposedName,
    server: entry.server,
    ...(description === '' ? {} : { description }),
    parameters: parameterSignature(entry.tool.inputSchema),
  };
}

/** A found tool as search_tools writes it: `name (server): what it does`, `(its parameters)`, then its schema when it was asked for by name. */
export function summaryText(t: ToolSummary & { inputSchema?: unknown }): string {
  const head = `${t.name} (${t.server})${t.description === undefined ? '' : `: ${t.description}`}\n  (${t.parameters})`;
  return t.inputSchema === undefined ? head : `${head}\n  input schema: ${JSON.stringify(t.inputSchema)}`;
}

/** search_tools' text for `entries` (none asked for by name): two lines a tool. */
export function searchSummaries(entries: readonly { exposedName: string; server: string; tool: Tool }[]): string {
  return entries.map((e) => summaryText(toolSummary(e))).join('\n');
}
