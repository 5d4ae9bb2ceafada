/** One thing wrong (or doubtful) in a settings or project file, located as precisely as we can. */
export interface Problem {
  severity: 'error' | 'warning';
  file: string;
  line?: number;
  server?: string;
  field?: string;
  message: string;
}

/** `settings.toml:12: server "github", field "args": must be an array of strings` */
export function formatProblem(p: Problem): string {
  const where = p.line === undefined ? p.file : `${p.file}:${p.line}`;
  const subject = [p.server === undefined ? undefined : `server "${p.server}"`, p.field === undefined ? undefined : `field "${p.field}"`]
    .filter(Boolean)
    .join(', ');
  const level = p.severity === 'warning' ? 'warning: ' : '';
  return `${where}: ${level}${subject ? `${subject}: ` : ''}${p.message}`;
}

export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}
