import { decodeHeaderValue, encodeHeaderValue } from './modern-protocol.js';

/**
 * Custom headers from tool parameters (2026-07-28, streamable HTTP): a tool's `inputSchema` may
 * mark a property, reached from the root through `properties` alone, with `x-mcp-header: NAME`;
 * a client calling it over HTTP sends that argument's value as `Mcp-Param-NAME` too, and the
 * server refuses the call (-32020) when the header is missing or differs from the body. Only
 * string, integer and boolean properties may be marked, each name an RFC 9110 token, unique
 * whatever its case; a tool marked otherwise is invalid, and a client must not call it.
 */
export interface ParamHeader {
  /** The argument's path in `arguments`. */
  path: string[];
  /** The header's name: `Mcp-Param-` and the annotation's value. */
  header: string;
}

const ANNOTATION = 'x-mcp-header';
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TYPES = new Set(['string', 'integer', 'boolean']);
/** Where a subschema is not reached through `properties` alone: an annotation there makes the tool invalid. */
const UNREACHED = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
];
/** Of those, the ones whose value maps names to subschemas. */
const BY_NAME = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

/** A tool's parameter headers, or why its schema's annotations make it invalid. */
export function paramHeadersOf(inputSchema: unknown): { headers: ParamHeader[] } | { invalid: string } {
  const headers: ParamHeader[] = [];
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: string[], reached: boolean): string | undefined => {
    if (!isRecord(node)) return undefined;
    if (ANNOTATION in node) {
      const at = path.length ? path.join('.') : 'the root';
      const name = node[ANNOTATION];
      if (!reached || path.length === 0) return `${at}: ${ANNOTATION} is allowed only on a property reached through properties alone`;
      if (typeof name !== 'string' || !TOKEN.test(name)) return `${at}: ${ANNOTATION} ${JSON.stringify(name)} is not an HTTP token`;
      if (typeof node.type !== 'string' || !TYPES.has(node.type))
        return `${at}: ${ANNOTATION} is allowed only on a string, integer or boolean, not ${JSON.stringify(node.type ?? 'an untyped property')}`;
      const before = seen.get(name.toLowerCase());
      if (before !== undefined) return `${ANNOTATION} ${JSON.stringify(name)} is declared twice (also as ${JSON.stringify(before)})`;
      seen.set(name.toLowerCase(), name);
      headers.push({ path, header: `Mcp-Param-${name}` });
    }
    if (isRecord(node.properties))
      for (const [key, child] of Object.entries(node.properties)) {
        const fault = visit(child, [...path, key], reached);
        if (fault) return fault;
      }
    for (const keyword of UNREACHED) {
      const sub = node[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub) ? sub : BY_NAME.has(keyword) && isRecord(sub) ? Object.values(sub) : [sub];
      for (const branch of branches) {
        const fault = visit(branch, [...path, `<${keyword}>`], false);
        if (fault) return fault;
      }
    }
    return undefined;
  };
  const fault = visit(inputSchema, [], true);
  return fault === undefined ? { headers } : { invalid: fault };
}

/** The headers a call with `args` sends: one for each marked argument that is there and not null. */
export function paramHeaderValues(headers: readonly ParamHeader[], args: unknown): Array<[string, string]> {
  const values: Array<[string, string]> = [];
  for (const { path, header } of headers) {
    let value: unknown = args;
    for (const key of path) value = isRecord(value) ? value[key] : undefined;
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'boolean'
          ? String(value)
          : typeof value === 'number' && Number.isSafeInteger(value)
            ? String(value)
            : undefined;
    if (text !== undefined) values.push([header, encodeHeaderValue(text)]);
  }
  return values;
}

/**
 * What a call's `Mcp-Param-*` headers say that its arguments do not, the server's half of
 * `paramHeaderValues`: each marked argument that is there and not null must come with its
 * header, decoding to the same value (a number compared as a number: `42.0` is 42). A header
 * whose argument is absent or null is ignored. `sent` reads a header by its lowercase name.
 */
export function paramHeaderMismatch(
  headers: readonly ParamHeader[],
  args: unknown,
  sent: (name: string) => string | undefined,
): string | undefined {
  for (const { path, header } of headers) {
    let value: unknown = args;
    for (const key of path) value = isRecord(value) ? value[key] : undefined;
    if (value === undefined || value === null) continue;
    const body = typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number' ? String(value) : undefined;
    if (body === undefined) continue;
    const raw = sent(header.toLowerCase());
    const at = path.join('.');
    if (raw === undefined) return `the body carries ${at} = ${JSON.stringify(value)} but the ${header} header is missing`;
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return `the ${header} header is not valid base64 in its =?base64?…?= form`;
    const same = typeof value === 'number' && DECIMAL.test(decoded) ? Number(decoded) === value : decoded === body;
    if (!same) return `the ${header} header says ${JSON.stringify(decoded)} but the body carries ${at} = ${JSON.stringify(value)}`;
  }
  return undefined;
}

const DECIMAL = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * The parameter headers of a link's tools, by name, as its server last listed them: the
 * transport learns them from each `tools/list` (modern-server-transport.ts), the fetch layer
 * sends them with each call (http/modern-headers.ts).
 */
export class ToolParamHeaders {
  readonly #byTool = new Map<string, ParamHeader[]>();

  /** Learns a listing's tools; gives back the invalid ones, by name, with why. */
  learn(tools: readonly unknown[]): Array<{ name: string; invalid: string }> {
    const invalid: Array<{ name: string; invalid: string }> = [];
    for (const tool of tools) {
      if (!isRecord(tool) || typeof tool.name !== 'string') continue;
      const found = paramHeadersOf(tool.inputSchema);
      if ('invalid' in found) {
        this.#byTool.delete(tool.name);
        invalid.push({ name: tool.name, invalid: found.invalid });
      } else if (found.headers.length) this.#byTool.set(tool.name, found.headers);
      else this.#byTool.delete(tool.name);
    }
    return invalid;
  }

  of(tool: string): readonly ParamHeader[] {
    return this.#byTool.get(tool) ?? [];
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
