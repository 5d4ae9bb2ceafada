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
  /** The forms of values added for good (`add`: OAuth tokens, what a command read). */
  readonly #kept = new Set<string>();
  /** Each named group's forms (`set`: a settings file's servers), replaced whole. */
  readonly #groups = new Map<string, ReadonlySet<string>>();
  #substrings = new Set<string>();
  #wholeValues = new Set<string>();
  #pattern: RegExp | undefined;
  #version = 0;

  constructor(secrets: Iterable<string> = []) {
    for (const secret of secrets) this.add(secret);
  }

  /**
   * Adds a secret value, for good, with the forms it is logged in: trimmed, JSON-escaped and
   * URL-encoded, and for `Bearer abc` the token `abc` alone.
   */
  add(secret: string): void {
    const fresh = [...formsOfSecret(secret)].filter((form) => !this.#kept.has(form));
    if (fresh.length === 0) return;
    // Only grows: the masks are added to, not rebuilt (a settings file of many servers adds one value at a time).
    for (const form of fresh) {
      this.#kept.add(form);
      this.#classify(form, this.#substrings, this.#wholeValues);
    }
    this.#changed();
  }

  /**
   * Makes `secrets` the whole of a named group, dropping what it held before: a removed
   * server's values are no longer masked (issue 26.4), while another group's are.
   */
  set(group: string, secrets: Iterable<string>): void {
    const forms = new Set<string>();
    for (const secret of secrets) for (const form of formsOfSecret(secret)) forms.add(form);
    const before = this.#groups.get(group) ?? new Set<string>();
    if (before.size === forms.size && [...forms].every((f) => before.has(f))) return;
    this.#replace(group, forms);
  }

  /** Grows whenever the secrets change: text redacted at an older version may hold one. */
  get version(): number {
    return this.#version;
  }

  #replace(group: string, forms: ReadonlySet<string>): void {
    if (forms.size === 0) this.#groups.delete(group);
    else this.#groups.set(group, forms);
    const substrings = new Set<string>();
    const wholeValues = new Set<string>();
    for (const form of this.#kept) this.#classify(form, substrings, wholeValues);
    for (const groupForms of this.#groups.values()) for (const form of groupForms) this.#classify(form, substrings, wholeValues);
    this.#substrings = substrings;
    this.#wholeValues = wholeValues;
    this.#changed();
  }

  #classify(form: string, substrings: Set<string>, wholeValues: Set<string>): void {
    if (form.length >= MIN_SUBSTRING_LENGTH && !PLAIN_WORDS.has(form.toLowerCase())) substrings.add(form);
    else wholeValues.add(form);
  }

  #changed(): void {
    this.#pattern = undefined;
    this.#version++;
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

/** The forms a secret is masked in; none for a reference as configured (`${TOKEN}`, `Bearer ${TOKEN}`): it names where a secret lives, and stays shown. */
function formsOfSecret(secret: string): Set<string> {
  const forms = new Set<string>();
  const trimmed = secret.trim();
  if (trimmed === '' || isReferenceOnly(splitCredential(trimmed)?.credential ?? trimmed)) return forms;
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
