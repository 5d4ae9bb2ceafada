/**
 * Reads typed fields out of a parsed table and records a problem for each wrong type, so
 * validation can collect every problem in one pass instead of stopping at the first.
 */
export class FieldReader {
  readonly #table: Record<string, unknown>;
  readonly #report: (field: string, message: string) => void;
  readonly #seen = new Set<string>();

  constructor(table: Record<string, unknown>, report: (field: string, message: string) => void) {
    this.#table = table;
    this.#report = report;
  }

  has(key: string): boolean {
    this.#seen.add(key);
    return this.#table[key] !== undefined;
  }

  /** The raw value, to choose how to read a field that may take several shapes. */
  peek(key: string): unknown {
    return this.#table[key];
  }

  /** Keys of the table that no reader asked for. */
  unread(): string[] {
    return Object.keys(this.#table).filter((k) => !this.#seen.has(k));
  }

  string(key: string): string | undefined {
    const v = this.#take(key);
    if (v === undefined || typeof v === 'string') return v;
    this.#report(key, `must be a string, not ${describe(v)}`);
    return undefined;
  }

  boolean(key: string): boolean | undefined {
    const v = this.#take(key);
    if (v === undefined || typeof v === 'boolean') return v;
    this.#report(key, `must be true or false, not ${describe(v)}`);
    return undefined;
  }

  number(key: string, { min, max, integer = false }: { min?: number; max?: number; integer?: boolean } = {}): number | undefined {
    let v = this.#take(key);
    if (typeof v === 'bigint') v = Number(v);
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || Number.isNaN(v) || (integer && !Number.isInteger(v))) {
      this.#report(key, `must be ${integer ? 'a whole number' : 'a number'}, not ${describe(v)}`);
      return undefined;
    }
    if ((min !== undefined && v < min) || (max !== undefined && v > max)) {
      this.#report(key, `must be ${rangeText(min, max)}, not ${v}`);
      return undefined;
    }
    return v;
  }

  strings(key: string): string[] | undefined {
    const v = this.#take(key);
    if (v === undefined) return undefined;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v;
    this.#report(key, `must be an array of strings, not ${describe(v)}`);
    return undefined;
  }

  stringMap(key: string): Record<string, string> | undefined {
    const v = this.#take(key);
    if (v === undefined) return undefined;
    if (isTable(v)) {
      const bad = Object.entries(v).filter(([, x]) => typeof x !== 'string');
      if (bad.length === 0) return v as Record<string, string>;
      for (const [k, x] of bad) this.#report(`${key}.${k}`, `must be a string, not ${describe(x)}`);
      return undefined;
    }
    this.#report(key, `must be a table of strings, not ${describe(v)}`);
    return undefined;
  }

  table(key: string): Record<string, unknown> | undefined {
    const v = this.#take(key);
    if (v === undefined || isTable(v)) return v;
    this.#report(key, `must be a table, not ${describe(v)}`);
    return undefined;
  }

  #take(key: string): unknown {
    this.#seen.add(key);
    return this.#table[key];
  }
}

export function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

export function describe(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  if (v instanceof Date) return 'a date';
  if (isTable(v)) return 'a table';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return `${typeof v === 'bigint' || typeof v === 'number' ? 'the number' : typeof v} ${String(v)}`;
}

function rangeText(min?: number, max?: number): string {
  if (min !== undefined && max !== undefined) return `between ${min} and ${max}`;
  if (min !== undefined) return min === 0 ? 'zero or more' : `at least ${min}`;
  return `at most ${max}`;
}
