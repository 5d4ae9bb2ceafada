/**
 * The first place where two parsed TOML documents differ, described for a person
 * (`mcp.servers[1].env.TOKEN: expected "a", got "b"`), or undefined when they are equal.
 * Key order does not matter. An empty table counts as absent: removing the last entry may
 * leave an empty `[mcp]` or none, and both mean the same settings.
 */
export function firstDifference(expected: unknown, actual: unknown, path = ''): string | undefined {
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual)) return mismatch(path, expected, actual);
    if (expected.length !== actual.length) return `${label(path)}: expected ${expected.length} items, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const diff = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (diff !== undefined) return diff;
    }
    return undefined;
  }
  if (expected instanceof Date || actual instanceof Date) {
    return expected instanceof Date && actual instanceof Date && dateText(expected) === dateText(actual)
      ? undefined
      : mismatch(path, expected, actual);
  }
  if (isTable(expected) && isTable(actual)) {
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      const sub = path === '' ? key : `${path}.${key}`;
      const [e, a] = [expected[key], actual[key]];
      if (e === undefined && isEmptyTable(a)) continue;
      if (a === undefined && isEmptyTable(e)) continue;
      const diff = firstDifference(e, a, sub);
      if (diff !== undefined) return diff;
    }
    return undefined;
  }
  return Object.is(expected, actual) ? undefined : mismatch(path, expected, actual);
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function isEmptyTable(value: unknown): boolean {
  return isTable(value) && Object.keys(value).length === 0;
}

/** smol-toml's dates print their TOML form; an invalid plain Date has no ISO form at all. */
function dateText(date: Date): string {
  return Number.isNaN(date.getTime()) ? `${date.constructor.name}:invalid` : `${date.constructor.name}:${date.toISOString()}`;
}

function mismatch(path: string, expected: unknown, actual: unknown): string {
  return `${label(path)}: expected ${show(expected)}, got ${show(actual)}`;
}

function label(path: string): string {
  return path === '' ? 'the document' : path;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value instanceof Date) return dateText(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const json = JSON.stringify(value);
  return json.length > 80 ? `${json.slice(0, 77)}...` : json;
}
