import { isTable } from '@blitz/core';

/** A server that cannot be imported: the reason names the field. */
export class SkipServer extends Error {}

/**
 * Reads a client's server object field by field: wrong types skip the server with the
 * field's name, and whatever was never read is listed so it can be named in a warning.
 */
export class Fields {
  readonly #raw: Readonly<Record<string, unknown>>;
  readonly #read = new Set<string>();

  constructor(raw: Readonly<Record<string, unknown>>) {
    this.#raw = raw;
  }

  has(key: string): boolean {
    return this.#raw[key] !== undefined;
  }

  /** Marks a field as handled without importing it. */
  ignore(...keys: string[]): void {
    for (const key of keys) this.#read.add(key);
  }

  raw(key: string): unknown {
    this.#read.add(key);
    return this.#raw[key];
  }

  string(key: string): string | undefined {
    const value = this.raw(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new SkipServer(`${key}: must be a string`);
    return value;
  }

  strings(key: string): string[] | undefined {
    const value = this.raw(key);
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new SkipServer(`${key}: must be a list of strings`);
    return [...(value as string[])];
  }

  stringMap(key: string): Record<string, string> | undefined {
    const value = this.raw(key);
    if (value === undefined) return undefined;
    if (!isTable(value)) throw new SkipServer(`${key}: must be an object of strings`);
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(value)) {
      // Numbers and booleans are what the user meant as text (PORT = 8080).
      if (typeof v === 'string') out[k] = v;
      else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
      else throw new SkipServer(`${key}.${k}: must be a string`);
    }
    return out;
  }

  number(key: string): number | undefined {
    const value = this.raw(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new SkipServer(`${key}: must be a positive number`);
    return value;
  }

  boolean(key: string): boolean | undefined {
    const value = this.raw(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') throw new SkipServer(`${key}: must be true or false`);
    return value;
  }

  /** Fields present but never read: not imported, and said so. */
  unread(): string[] {
    return Object.keys(this.#raw).filter((k) => !this.#read.has(k) && this.#raw[k] !== undefined);
  }
}
