import { CLIENTS } from '@blitz/clients';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { clientSnippets, type Launch } from '../../apps/settings/src/client-snippets.js';

const LAUNCHES: Launch[] = [
  { command: 'blitz', args: ['connect'], env: {} },
  { command: '/opt/my tools/blitz', args: ['connect'], env: { BLITZ_HOME: '/home/me/.blitz-work' } },
];

/** The entry a snippet holds, read back as its client would read the file. */
function entryOf(text: string, language: 'json' | 'toml', key: readonly string[]): unknown {
  const data = (language === 'json' ? JSON.parse(text) : parse(text)) as Record<string, unknown>;
  const servers = key.reduce<unknown>((at, k) => (at as Record<string, unknown>)[k], data) as Record<string, unknown>;
  expect(Object.keys(servers)).toEqual(['blitz']);
  return servers.blitz;
}

describe("the settings page's client snippets (issue 29.9)", () => {
  it('hold, for every client Blitz knows, the blitz entry blitz clients connect writes', () => {
    for (const launch of LAUNCHES) {
      const snippets = clientSnippets(launch);
      expect(snippets.map((s) => s.id).sort()).toEqual(CLIENTS.map((c) => c.id).sort());
      for (const spec of CLIENTS) {
        const snippet = snippets.find((s) => s.id === spec.id)!;
        if (snippet.language === 'shell') {
          expect(snippet.text).toContain(launch.command.includes(' ') ? `'${launch.command}' connect` : `${launch.command} connect`);
          for (const [k, v] of Object.entries(launch.env)) expect(snippet.text).toContain(`-e ${k}=${v}`);
          continue;
        }
        expect(entryOf(snippet.text, snippet.language, spec.serversKey), `${spec.id} ${launch.command}`).toEqual(spec.toClient(launch));
      }
    }
  });
});
