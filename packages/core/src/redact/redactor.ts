import { isReferenceOnly } from './env-reference.js';
import { MASK, maskCredential, splitCredential } from './mask.js';
import { isSecretField } from './secret-names.js';
import { applyTextRules } from './text-rules.js';

/**
 * Below this length a secret is masked only where it is a whole value: masking every
 * `abc` or `1` inside other text would destroy logs and hide nothing worth hiding.
 */
const MIN_SUBSTRING_LENGTH = 4;

/** Common env values that are not credentials; as substrings they would blank every JSON `true`. */
const PLAIN_WORDS = new Set(['true', 'false', 'null', 'none']);

/**
 * Masks secrets in text and JSON-like values before they reach a log, telemetry or the
 * audit log (MCP-42): known values (a server's env and header values, OAuth tokens) and
 * secrets recognisable by shape (`Bearer` tokens, `Authorization` lines, URL userinfo,
 * secret-named parameters and fields).
 */
export class Redactor {
  readonly #substrings = new Set<string>();
  readonly #wholeValues = new Set<string>();
  #pattern: RegExp | undefined;
  #version = 0;

  constructor(secrets: Iterable<string> = []) {
    for (const secret of secrets) this.add(secret);
  }

  /**
   * Adds a secret value, with the forms it is logged in: trimmed, JSON-escaped and
   * URL-encoded, and for `Bearer abc` the token `abc` alone.
   */
  add(secret: string): void {
    // `${TOKEN}` or `Bearer ${TOKEN}` as configured names where a secret lives, and stays shown.
    const trimmed = secret.trim();
    if (isReferenceOnly(splitCredential(trimmed)?.credential ?? trimmed)) return;
    const known = this.#substrings.size + this.#wholeValues.size;
    for (const form of formsOf(secret)) {
      if (form.length >= MIN_SUBSTRING_LENGTH && !PLAIN_WORDS.has(form.toLowerCase())) this.#substrings.add(form);
      else this.#wholeValues.add(form);
    }
    if (this.#substrings.size + this.#wholeValues.size === known) return;
    this.#pattern = undefined;
    this.#version++;
  }

  /** Grows whenever a secret not known before is added: text redacted at an older version may hold it. */
  get version(): number {
    return this.#version;
  }

  redact(text: string): string {
    if (this.#wholeValues.has(text) || this.#wholeValues.has(text.trim())) return MASK;
    const pattern = this.#knownValues();
    return applyTextRules(pattern ? text.replace(pattern, MASK) : text);
  }

  /**
   * A redacted copy of a JSON-like value: strings redacted, secret-named fields masked,
   * Errors copied with their message, stack and cause redacted. Other objects become what
   * JSON would write for them (`toJSON`, else own enumerable fields), as logs serialize them.
   */
  redactValue(value: unknown): unknown {
    return this.#deep(value, new WeakMap());
  }

  #deep(value: unknown, seen: WeakMap<object, unknown>): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (typeof value !== 'object' || value === null) return value;
    const done = seen.get(value);
    if (done !== undefined) return done;
    if (Array.isArray(value)) {
      const copy: unknown[] = [];
      seen.set(value, copy);
      for (const item of value) copy.push(this.#deep(item, seen));
      return copy;
    }
    if (value instanceof Error) return this.#error(value, seen);
    const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return this.#deep(toJSON.call(value), seen);
    const copy: Record<string, unknown> = {};
    seen.set(value, copy);
    for (const [key, field] of Object.entries(value)) copy[this.redact(key)] = this.#field(key, field, seen);
    return copy;
  }

  #field(key: string, field: unknown, seen: WeakMap<object, unknown>): unknown {
    if (!isSecretField(key)) return this.#deep(field, seen);
    if (typeof field === 'string') return field === '' || isReferenceOnly(field) ? field : maskCredential(field);
    if (typeof field === 'number' || typeof field === 'bigint') return MASK;
    return this.#deep(field, seen);
  }

  /** Same prototype, so `instanceof` and `name` survive; every own property redacted. */
  #error(err: Error, seen: WeakMap<object, unknown>): Error {
    const copy = Object.create(Object.getPrototypeOf(err) as object | null) as Error;
    seen.set(err, copy);
    for (const key of Reflect.ownKeys(err)) {
      const descriptor = Object.getOwnPropertyDescriptor(err, key);
      if (!descriptor) continue;
      if ('value' in descriptor) {
        descriptor.value = typeof key === 'string' ? this.#field(key, descriptor.value, seen) : this.#deep(descriptor.value, seen);
      }
      Object.defineProperty(copy, key, descriptor);
    }
    return copy;
  }

  /** One alternation of every known value, longest first so a longer secret is never half-masked. */
  #knownValues(): RegExp | undefined {
    if (this.#pattern === undefined && this.#substrings.size > 0) {
      const alternatives = [...this.#substrings].sort((a, b) => b.length - a.length).map(escapeRegExp);
      this.#pattern = new RegExp(alternatives.join('|'), 'g');
    }
    return this.#pattern;
  }
}

function formsOf(secret: string): Set<string> {
  const forms = new Set<string>();
  const trimmed = secret.trim();
  if (trimmed === '') return forms;
  const credential = splitCredential(trimmed)?.credential.trim();
  for (const value of [secret, trimmed, credential]) {
    if (!value) continue;
    forms.add(value);
    forms.add(JSON.stringify(value).slice(1, -1));
    forms.add(encodeURIComponent(value));
  }
  return forms;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
