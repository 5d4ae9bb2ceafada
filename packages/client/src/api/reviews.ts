/** `/v1/workspaces/ID/mcp-servers/NAME/review`: a server's tools held for review since their definitions were pinned (issue 31). */

/** One field that differs from the pinned definition: a dotted path into schemas (`inputSchema.properties.path`). */
export interface FieldChange {
  field: string;
  /** Absent: the field is new. */
  before?: unknown;
  /** Absent: the field is gone. */
  after?: unknown;
}

export interface ToolReview {
  tool: string;
  change: 'changed' | 'new';
  /** ISO 8601: when it was first listed so. */
  seenAt: string;
  fields: FieldChange[];
}

export interface ServerReview {
  server: string;
  workspace: string;
  tools: ToolReview[];
}

/** `POST …/review/accept`: the tools whose definitions are pinned now. */
export interface ReviewAccepted {
  server: string;
  accepted: string[];
}
