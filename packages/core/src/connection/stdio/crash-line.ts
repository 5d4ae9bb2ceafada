/**
 * Lines that name what went wrong, by the shapes runtimes crash in: Node's `Error: …`,
 * `TypeError: …` and `Error [ERR_…]: …`; Python's last `ValueError: …` after its traceback;
 * Go's `panic: …` and `fatal error: …`; and the `error:` / `fatal:` lines of tools (git,
 * cargo, npm). Only at the start of a line: an indented one is a frame or a quoted cause.
 */
const ERROR_LINE = [
  /^(?:Uncaught )?(?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*)?(?:Error|Exception)(?: \[[\w-]+\])?:\s*\S/,
  /^(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt)$/,
  /^(?:panic|fatal error): \S/,
  /^(?:[\w.-]+:\s+)?(?:error|fatal)(?:\[\w+\])?:\s*\S/i,
];

/**
 * Lines that never say what went wrong: a version banner printed after the error (Node's
 * `Node.js v20.20.2`), stack frames, the caret under a source line, an error object's fields,
 * and Go's goroutine headers and `exit status 2`.
 */
const NOISE_LINE = [
  /^Node\.js v\d/,
  /^\s+at\s/,
  /^\s*File ".*", line \d+/,
  /^\s*\^+\s*$/,
  /^\s*[{}[\]]\s*$/,
  /^\s+[\w[\]]+: .*,?$/,
  /^goroutine \d+ \[/,
  /^\t/,
  /^exit status \d+$/,
  /^Traceback \(most recent call last\):$/,
];

/**
 * The line of a crashed server's stderr that says what went wrong (issue 26.3): the last line
 * shaped like an error, else the last line that is not a banner or a stack frame, else the
 * last line. The last line alone is often no cause: every Node crash ends with its version.
 */
export function crashLine(lines: readonly string[]): string | undefined {
  const kept = lines.map((l) => l.trimEnd()).filter((l) => l.trim() !== '');
  const error = findLast(kept, (l) => ERROR_LINE.some((re) => re.test(l)));
  if (error !== undefined) return error.trim();
  return (findLast(kept, (l) => !NOISE_LINE.some((re) => re.test(l))) ?? kept.at(-1))?.trim();
}

function findLast(lines: readonly string[], test: (line: string) => boolean): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) if (test(lines[i]!)) return lines[i];
  return undefined;
}
