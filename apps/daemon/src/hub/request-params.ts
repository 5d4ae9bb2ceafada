import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

/** The schemas of the requests the hub answers, as the SDK server reads them. */
const SCHEMAS = new Map(
  [
    InitializeRequestSchema,
    PingRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema,
    SubscribeRequestSchema,
    UnsubscribeRequestSchema,
    ListPromptsRequestSchema,
    GetPromptRequestSchema,
    CompleteRequestSchema,
    SetLevelRequestSchema,
  ].map((schema) => [schema.shape.method.value as string, schema]),
);

/** An issue's message is one line of at most this many characters. */
const MAX_ISSUE_CHARS = 200;

/**
 * The answer to a request whose params its method's schema refuses (issue 25.5): -32602 with
 * the first problem in one line (`Invalid params of tools/call: params.name: …`), where the SDK
 * server would answer -32603 with its schema library's whole multi-line report. `undefined`:
 * the params are fine, or the method is not one the hub answers (the SDK says so).
 */
export function paramsRefusal(request: JSONRPCRequest): JSONRPCMessage | undefined {
  const parsed = SCHEMAS.get(request.method)?.safeParse(request);
  if (parsed === undefined || parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  const what = (issue?.message ?? 'not as the method takes them').replace(/\s+/g, ' ').slice(0, MAX_ISSUE_CHARS);
  return { jsonrpc: '2.0', id: request.id, error: { code: -32602, message: `Invalid params of ${request.method}: ${where}${what}` } };
}
