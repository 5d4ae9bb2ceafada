import type { ClientId, ClientSpec } from '../client-spec.js';
import { claudeCode } from './claude-code.js';
import { claudeDesktop } from './claude-desktop.js';
import { codex } from './codex.js';
import { cursor } from './cursor.js';
import { gemini } from './gemini.js';
import { opencode } from './opencode.js';
import { vscode } from './vscode.js';
import { windsurf } from './windsurf.js';
import { zed } from './zed.js';

/** Every client Blitz knows, in the order they are listed. */
export const CLIENTS: readonly ClientSpec[] = [claudeCode, claudeDesktop, cursor, vscode, windsurf, codex, gemini, zed, opencode];

export function clientById(id: string): ClientSpec | undefined {
  return CLIENTS.find((c) => c.id === id);
}

export type { ClientId };
