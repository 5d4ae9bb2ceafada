import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { TASKS_EXTENSION, type IntroducedServer } from '@blitz/core';

/** The most of one server's instructions the hub passes on. */
export const MAX_INSTRUCTIONS_BYTES = 8 * 1024;

export interface IntroductionInput {
  root: string;
  agent: string;
  readOnly: boolean;
  /** The servers offered to the session, in settings order, with what each announced when last connected. */
  offered: readonly IntroducedServer[];
}

/**
 * What the hub says of itself at `initialize`: the capabilities it can route for the servers
 * offered (completions, resource subscriptions, the tasks extension where any of them declares them), and the
 * instructions — its own line, then each server's own instructions under its name and tool
 * prefix, marked as that server's words and bounded, in settings order.
 */
export function introduce(input: IntroductionInput): {
  capabilities: ServerCapabilities;
  instructions: string;
  withParagraph(paragraph: string): string;
} {
  const declared = input.offered.map((s) => s.announced?.capabilities);
  const completions = declared.some((c) => c?.completions);
  const subscribe = declared.some((c) => c?.resources?.subscribe);
  const tasks = declared.some((c) => c?.extensions !== undefined && TASKS_EXTENSION in c.extensions);
  const capabilities: ServerCapabilities = {
    tools: { listChanged: true },
    resources: { listChanged: true, ...(subscribe ? { subscribe: true } : {}) },
    prompts: { listChanged: true },
    logging: {},
    ...(completions ? { completions: {} } : {}),
    // A 2026-07-28 server's tasks reach a client that declares the extension (hub-session.ts taskRequest).
    ...(tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
  };
  const own = `Blitz: the MCP servers of ${input.root}, for agent ${input.agent}${input.readOnly ? ', read-only' : ''}.`;
  const sections = input.offered.flatMap((s) => (s.announced?.instructions ? [section(s, s.announced.instructions)] : []));
  const lead =
    "Each server's own instructions follow, as that server wrote them (its words, not Blitz's), with the prefix its tools carry here.";
  const rest = sections.length === 0 ? [] : [lead, ...sections];
  return {
    capabilities,
    instructions: [own, ...rest].join('\n\n'),
    // Second, before the servers' own words (up to 8 KB each): Claude Code keeps only the first 2,048 characters of a server's instructions.
    withParagraph: (paragraph) => [own, paragraph, ...rest].join('\n\n'),
  };
}

function section(server: IntroducedServer, text: string): string {
  const tools = server.prefix ? `tools named ${server.prefix}__<tool>` : 'tools unprefixed';
  // The server's text cannot close its own section and speak as someone else.
  const body = bounded(text).replaceAll('</server-instructions', '<\\/server-instructions');
  return `<server-instructions server="${server.name}" ${server.prefix ? `prefix="${server.prefix}__"` : 'prefix=""'}>\n## MCP server ${server.name} (${tools})\n${body}\n</server-instructions>`;
}

/** At most 8 KB of a server's instructions, cut on a character boundary, saying so. */
function bounded(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= MAX_INSTRUCTIONS_BYTES) return text;
  // A cut inside a multi-byte character leaves a replacement character: drop it.
  const cut = bytes
    .subarray(0, MAX_INSTRUCTIONS_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return `${cut}\n[… cut by Blitz at 8 KB of ${bytes.length} bytes]`;
}
