import { CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/** A question of the hub's session put to a 2026-07-28 client in an `input_required` result. */
export interface Asked {
  /** The session's request id: the client's answer becomes that request's result. */
  id: RequestId;
  method: string;
  params: Record<string, unknown>;
}

/** What an answer to each kind of question must be (the revision's InputResponse is that request's result). */
const ANSWERS = {
  'elicitation/create': ElicitResultSchema,
  'sampling/createMessage': CreateMessageResultSchema,
  'roots/list': ListRootsResultSchema,
} as const;

const SHORT: Readonly<Record<string, string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** The key a new question gets among a call's open ones: its kind and a number (`elicitation_1`). */
export function inputKey(method: string, open: ReadonlyMap<string, Asked>): string {
  const kind = SHORT[method] ?? 'input';
  let n = 1;
  while (open.has(`${kind}_${n}`)) n += 1;
  return `${kind}_${n}`;
}

/**
 * A request's `inputResponses` checked: an object (when present) whose entries are objects;
 * those naming an open question must be what that question asks for. Keys naming none are
 * ignored (the revision lets a server ignore what it does not know).
 */
export function checkInputResponses(
  responses: unknown,
  open: ReadonlyMap<string, Asked> = new Map(),
): { answers: Map<string, Record<string, unknown>> } | { invalid: string } {
  const answers = new Map<string, Record<string, unknown>>();
  if (responses === undefined) return { answers };
  if (!isRecord(responses)) return { invalid: `inputResponses must be an object of answers by key, not ${JSON.stringify(responses)}` };
  for (const [key, value] of Object.entries(responses)) {
    if (!isRecord(value)) return { invalid: `inputResponses["${key}"] must be an object, not ${JSON.stringify(value)}` };
    const asked = open.get(key);
    if (!asked) continue;
    const schema = ANSWERS[asked.method as keyof typeof ANSWERS];
    const parsed = schema?.safeParse(value);
    if (parsed && !parsed.success)
      return { invalid: `inputResponses["${key}"] is not a ${asked.method} result: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
    answers.set(key, value);
  }
  return { answers };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
