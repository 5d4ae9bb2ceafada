/**
 * Same JSON content, whatever the order of keys (a server may list the same tool with its fields
 * in another order), a key whose value is undefined being no key, as in JSON (the SDK's parsed
 * tools carry `title: undefined` and the like; the same tools read back from the file do not):
 * CatalogCache's `put` and `putList` alike, and whether a live listing is the cached one it
 * replaces (cached-catalogs.ts).
 */
export function sameContent(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameContent(x, b[i]));
  if (!isObject(a) || !isObject(b) || Array.isArray(b)) return false;
  const keys = definedKeys(a);
  return keys.length === definedKeys(b).length && keys.every((k) => sameContent(a[k], b[k]));
}

function definedKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value).filter((k) => value[k] !== undefined);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
