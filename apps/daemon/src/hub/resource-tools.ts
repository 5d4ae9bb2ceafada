import type { CallToolResult, ReadResourceResult, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { decide, formatBytes, permissionKey, type CallSignal, type ResourceEntry } from '@blitz/core';
import type { SessionContext } from './session-context.js';
import type { AuditedCall } from '../audit/audited-call.js';
import { LIST_RESOURCES, READ_RESOURCE } from './resource-tool-list.js';
import { toolError } from './tool-error.js';

/** Text longer than this is cut, with a note saying so (MCP-35). */
export const MAX_RESOURCE_TEXT_BYTES = 256 * 1024;

/** Runs a resource tool (MCP-35): approved like the server's tools, by rule or auto_approve (MCP-43). */
export async function callResourceTool(
  ctx: SessionContext,
  name: string,
  args: Record<string, unknown>,
  requestId: RequestId,
  signal: CallSignal,
  audit: AuditedCall,
): Promise<CallToolResult> {
  const { workspace, agent } = ctx;
  const server = typeof args.server === 'string' && args.server !== '' ? args.server : undefined;
  if (name === READ_RESOURCE && (server === undefined || typeof args.uri !== 'string')) {
    return toolError(`${READ_RESOURCE} needs "server" and "uri"`);
  }
  if (server !== undefined) {
    const { config } = workspace.manager.resolveServer(agent, server);
    audit.server = server;
    const approval = await ctx.approver.approve({
      server,
      tool: name,
      args,
      autoApprove: config.autoApprove,
      inSettings: config.source.kind === 'global',
      permissions: ctx.settings().permissions,
      requestId,
      signal,
    });
    audit.rule = approval.rule;
    if (!approval.ok) {
      audit.refused();
      return toolError(approval.message);
    }
  }
  if (name === LIST_RESOURCES) {
    const entries = await workspace.manager.lists.listResources(agent, server);
    // Across servers no one is asked, but a server whose resources a rule denies stays out.
    const permissions = ctx.settings().permissions;
    const allowed = (s: string) => decide(permissions, permissionKey(s, LIST_RESOURCES), false).kind !== 'deny';
    return formatResourceList(server === undefined ? entries.filter((e) => allowed(e.server)) : entries);
  }
  const read = await workspace.manager.lists.readResource(args.uri as string, { agent, server: server!, signal: signal.toAbortSignal() });
  return formatResourceRead(server!, read);
}

export function formatResourceList(entries: readonly ResourceEntry[]): CallToolResult {
  if (entries.length === 0) return { content: [{ type: 'text', text: 'No MCP server offers resources.' }] };
  const lines = entries.map((e) => {
    const r = e.resource;
    const extra = [r.mimeType, r.description].filter(Boolean).join(' — ');
    return `${e.server}\t${r.uri}\t${r.name}${extra ? `\t${extra}` : ''}`;
  });
  return {
    content: [{ type: 'text', text: `server\turi\tname\n${lines.join('\n')}` }],
    structuredContent: { resources: entries.map((e) => ({ server: e.server, ...e.resource })) },
  };
}

/** A read resource as tool output: text cut at 256 KB with a note, binary described by type and size. */
export function formatResourceRead(server: string, result: ReadResourceResult): CallToolResult {
  const content: CallToolResult['content'] = result.contents.map((item) => {
    if ('text' in item && typeof item.text === 'string') {
      const bytes = Buffer.byteLength(item.text);
      if (bytes <= MAX_RESOURCE_TEXT_BYTES) return { type: 'text', text: item.text };
      const cut = Buffer.from(item.text)
        .subarray(0, MAX_RESOURCE_TEXT_BYTES)
        .toString('utf8')
        .replace(/\uFFFD$/, '');
      return { type: 'text', text: `${cut}\n\n[cut: ${item.uri} is ${formatBytes(bytes)}; only the first 256 KB are shown]` };
    }
    const blob = 'blob' in item && typeof item.blob === 'string' ? item.blob : '';
    const size = Math.floor((blob.length * 3) / 4) - (blob.endsWith('==') ? 2 : blob.endsWith('=') ? 1 : 0);
    return {
      type: 'text',
      text: `[binary resource ${item.uri} from ${server}: ${item.mimeType ?? 'unknown type'}, ${formatBytes(size)}; not shown]`,
    };
  });
  return { content };
}
