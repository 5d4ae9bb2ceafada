/** What opens `folder` to a sandboxed server: the remedy of a refused write. */
export function sandboxWriteRemedy(folder: string): string {
  return `to let it write there, add sandbox_write = [${JSON.stringify(folder)}] to its entry in settings.toml (blitz mcp add --sandbox-write ${folder}), or set sandbox = false`;
}
