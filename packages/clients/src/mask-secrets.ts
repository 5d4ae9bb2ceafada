import { isTable, maskConfigValue } from '@blitz/core';

const SECRET_TABLES = new Set(['env', 'headers', 'environment', 'http_headers']);

/**
 * The text with every env and header value of the document masked as `blitz mcp get` masks
 * them, so a diff of a client's file can be printed. Values are found in the parsed data and
 * replaced where they appear as quoted strings.
 */
export function maskSecretsIn(text: string, ...documents: unknown[]): string {
  const secrets = new Set<string>();
  const walk = (node: unknown, key: string | undefined) => {
    if (Array.isArray(node)) node.forEach((item) => walk(item, undefined));
    else if (isTable(node)) {
      for (const [k, v] of Object.entries(node)) {
        if (key !== undefined && SECRET_TABLES.has(key) && typeof v === 'string') secrets.add(v);
        else walk(v, k);
      }
    }
  };
  for (const doc of documents) walk(doc, undefined);
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    const masked = String(maskConfigValue(secret));
    if (masked === secret) continue;
    out = out.split(JSON.stringify(secret)).join(JSON.stringify(masked));
    if (!secret.includes("'")) out = out.split(`'${secret}'`).join(`'${masked}'`);
  }
  return out;
}
