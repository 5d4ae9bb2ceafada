import { canonicalJson, DEFINITION_FIELDS, type ToolDefinition } from './tool-definition.js';

/** One field that differs between the pinned definition and the one listed now; a dotted path into schemas (`inputSchema.properties.path`). */
export interface FieldChange {
  field: string;
  /** Absent: the field is new. */
  before?: unknown;
  /** Absent: the field is gone. */
  after?: unknown;
}

/**
 * What changed, field by field, in the order a review shows them: objects are followed down to
 * the members that differ (a schema's one new property is one line, not the whole schema);
 * arrays and plain values are compared whole. With nothing pinned every field is new.
 */
export function diffDefinitions(before: ToolDefinition | undefined, after: ToolDefinition): FieldChange[] {
  const changes: FieldChange[] = [];
  const a = (before ?? {}) as Record<string, unknown>;
  const b = after as unknown as Record<string, unknown>;
  for (const field of DEFINITION_FIELDS) diffValue(field, a[field], b[field], changes);
  return changes;
}

function diffValue(path: string, before: unknown, after: unknown, out: FieldChange[]): void {
  if (before === undefined && after === undefined) return;
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) diffValue(`${path}.${key}`, before[key], after[key], out);
    return;
  }
  if (before !== undefined && after !== undefined && canonicalJson(before) === canonicalJson(after)) return;
  out.push({ field: path, ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
