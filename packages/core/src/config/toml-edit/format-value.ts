import { BlitzError } from '../../errors/blitz-error.js';

/** A value Blitz writes into settings.toml: what smol-toml gives back when parsing it. */
export type TomlValue = string | number | boolean | readonly TomlValue[] | { readonly [key: string]: TomlValue | undefined };

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\f': '\\f',
  '\r': '\\r',
};

/** A key as written on the left of `=`: bare when TOML allows it, quoted otherwise. */
export function formatKey(key: string): string {
  return BARE_KEY.test(key) ? key : formatString(key);
}

/**
 * A basic (double-quoted) string. Control characters are escaped so every value stays on
 * one line; other characters, non-ASCII included, are written as they are (TOML is UTF-8).
 */
export function formatString(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    const code = ch.charCodeAt(0);
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) out += short;
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(value.charCodeAt(i + 1))) {
      out += ch + value[i + 1]!;
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      // A lone surrogate has no UTF-8 encoding and TOML forbids it as an escape.
      throw new BlitzError('INVALID_ARGUMENT', `${JSON.stringify(value)} contains a lone UTF-16 surrogate, which TOML cannot hold`);
    } else out += ch;
  }
  return `${out}"`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** A number: integers as integers; anything a TOML integer cannot hold exactly as a float. */
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  const text = String(value);
  if (Number.isSafeInteger(value) || /[.e]/.test(text)) return text;
  // Past 2^53 smol-toml refuses an integer it cannot hold exactly; the same double as a float reads back equal.
  return `${text}.0`;
}

/**
 * One value, on one line: arrays as `[a, b]`, tables as inline tables `{ k = v }`.
 * `where` names the field in the error when the value is not something TOML can hold.
 */
export function formatValue(value: unknown, where: string): string {
  switch (typeof value) {
    case 'string':
      return formatString(value);
    case 'number':
      return formatNumber(value);
    case 'boolean':
      return String(value);
    case 'object':
      if (Array.isArray(value)) return `[${value.map((item, i) => formatValue(item, `${where}[${i}]`)).join(', ')}]`;
      if (isPlainObject(value)) return formatInlineTable(value, where);
      break;
    default:
      break;
  }
  throw new BlitzError('INVALID_ARGUMENT', `${where} cannot be written to TOML: ${describe(value)}`, {
    problems: [`${where}: unsupported value`],
  });
}

function formatInlineTable(table: Record<string, unknown>, where: string): string {
  const pairs = Object.entries(table)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${formatKey(k)} = ${formatValue(v, `${where}.${k}`)}`);
  return pairs.length === 0 ? '{}' : `{ ${pairs.join(', ')} }`;
}

function isPlainObject(value: object | null): value is Record<string, unknown> {
  if (value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'object') return `a ${value.constructor?.name ?? 'null-prototype'} object`;
  return `a ${typeof value}`;
}
