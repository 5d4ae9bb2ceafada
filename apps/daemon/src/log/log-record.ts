export type LogLevel = 'info' | 'warn' | 'error';

export type LogFields = Readonly<Record<string, unknown>>;

/** One entry, already redacted; `time` in epoch milliseconds. */
export interface LogRecord {
  time: number;
  level: LogLevel;
  msg: string;
  fields: LogFields;
}

/** Keys every line owns; a field with one of these names is written as `_time`, … instead. */
const RESERVED = new Set(['time', 'level', 'msg']);

/** `{"time":ISO,"level":…,"msg":…,...fields}` and a newline: always one valid JSON line. */
export function toJsonLine(record: LogRecord): string {
  const line: Record<string, unknown> = { time: new Date(record.time).toISOString(), level: record.level, msg: record.msg };
  for (const [key, value] of Object.entries(record.fields)) {
    line[RESERVED.has(key) ? `_${key}` : key] = toPlain(value, []);
  }
  return `${JSON.stringify(line)}\n`;
}

/** The foreground form on stderr: `12:00:01 warn  msg key=value`, local time. */
export function toHumanLine(record: LogRecord): string {
  const date = new Date(record.time);
  const clock = [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
  const fields = Object.entries(record.fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ` ${key}=${humanValue(value)}`)
    .join('');
  return `${clock} ${record.level.padEnd(5)} ${record.msg}${fields}\n`;
}

function humanValue(value: unknown): string {
  if (value instanceof Error) return quoteIfNeeded(value.message);
  if (typeof value === 'string') return quoteIfNeeded(value);
  if (typeof value !== 'object' || value === null) return String(value);
  return JSON.stringify(toPlain(value, []));
}

function quoteIfNeeded(text: string): string {
  return text !== '' && /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
}

/**
 * What JSON can hold: the redactor keeps Errors as Errors (whose message and stack JSON
 * would drop), may return cycles, and leaves bigints, which `JSON.stringify` throws on.
 */
function toPlain(value: unknown, ancestors: object[]): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.includes(value)) return '[Circular]';
  ancestors.push(value);
  try {
    if (Array.isArray(value)) return value.map((item: unknown) => toPlain(item, ancestors));
    const plain: Record<string, unknown> = {};
    if (value instanceof Error) {
      plain.name = value.name;
      plain.message = value.message;
    }
    for (const [key, field] of Object.entries(value)) plain[key] = toPlain(field, ancestors);
    if (value instanceof Error) {
      if (value.cause !== undefined) plain.cause = toPlain(value.cause, ancestors);
      if (value.stack !== undefined) plain.stack = value.stack;
    }
    return plain;
  } finally {
    ancestors.pop();
  }
}
