import type { Tool } from '@modelcontextprotocol/sdk/types.js';

export const LIST_RESOURCES = 'list_mcp_resources';
export const READ_RESOURCE = 'read_mcp_resource';
export const RESOURCE_TOOL_NAMES = [LIST_RESOURCES, READ_RESOURCE];

/** The hub's own tools (MCP-35): allowed in read-only mode, approved like the server's tools. */
export const RESOURCE_TOOLS: Tool[] = [
  {
    name: LIST_RESOURCES,
    description: "Lists the resources (files, documents, schemas…) the MCP servers offer, or one server's.",
    inputSchema: { type: 'object', properties: { server: { type: 'string', description: 'Only this MCP server' } } },
    annotations: { readOnlyHint: true },
  },
  {
    name: READ_RESOURCE,
    description:
      'Reads one resource of an MCP server by its URI. Text comes back (up to 256 KB); binary content is described, not inlined.',
    inputSchema: {
      type: 'object',
      properties: {
        server: { type: 'string', description: 'The MCP server offering it' },
        uri: { type: 'string', description: 'The resource URI' },
      },
      required: ['server', 'uri'],
    },
    annotations: { readOnlyHint: true },
  },
];
