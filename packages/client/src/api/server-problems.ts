/** Validating and testing a server entry before it is saved (the settings page's form). */

/** One problem of a server entry, by field (`field` absent: the entry as a whole). */
export interface FieldProblem {
  field?: string;
  message: string;
  /** `field: message`, as the CLI says it. */
  text: string;
}

/** `POST /v1/config/mcp-servers/validate`: every problem saving the server would meet; empty when it would save. */
export interface ServerProblems {
  problems: FieldProblem[];
}

/** `POST /v1/config/mcp-servers/NAME/test`: connected once on its own and listed its tools, as `blitz doctor --online`. */
export interface ServerTestResult {
  server: string;
  ok: boolean;
  tools: Array<{ name: string; description?: string }>;
  error?: string;
  elapsedMs: number;
}
