/**
 * Whether `JSON.stringify(value)` surely takes at most `limit` UTF-8 bytes, found without
 * serialising: a walk adding up an upper bound of each part (a string's UTF-16 unit is at most
 * 6 bytes written, `\u0000`). `false` means "maybe more": the caller then measures exactly.
 * Values JSON would treat specially (`toJSON`, class instances) answer `false` too, and so does
 * a cycle: each visit adds to the bound until it passes the limit.
 */
export function surelyWithin(value: unknown, limit: number): boolean {
  let bound = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    switch (typeof item) {
      case 'string':
        bound += item.length * 6 + 2;
        break;
      case 'number':
        // The longest a number is written: -1.2345678901234567e-308.
        bound += 24;
        break;
      case 'boolean':
      case 'undefined':
        bound += 5;
        break;
      case 'object': {
        if (item === null) {
          bound += 4;
          break;
        }
        if (Array.isArray(item)) {
          bound += 2 + item.length;
          for (const element of item) pending.push(element);
          break;
        }
        const proto: unknown = Object.getPrototypeOf(item);
        if ((proto !== Object.prototype && proto !== null) || 'toJSON' in item) return false;
        bound += 2;
        for (const key of Object.keys(item)) {
          // The key written as a string, its colon and its comma.
          bound += key.length * 6 + 4;
          pending.push((item as Record<string, unknown>)[key]);
        }
        break;
      }
      default:
        // bigint throws in JSON.stringify; functions and symbols are measured exactly.
        return false;
    }
    if (bound > limit) return false;
  }
  return true;
}
