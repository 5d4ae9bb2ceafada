import { useState } from 'preact/hooks';
import type { ExposedTool, WorkspaceServerDetail } from '@blitz/client/api-types';
import type { PageApi } from './page-api.js';

interface Props {
  api: PageApi;
  name: string;
  /** The server's detail in each open workspace that runs it, by the workspace's root. */
  details: Array<{ root: string; detail: WorkspaceServerDetail }>;
  readOnly: boolean;
  refresh(): Promise<void>;
}

interface Row {
  tool: string;
  exposedName?: string;
  description?: string;
  offered: boolean;
  approval?: ExposedTool['approval'];
  why?: string;
  /** The workspaces that list it, when not all of them do. */
  only?: string[];
}

const APPROVALS: Array<[ExposedTool['approval'], string]> = [
  ['ask', 'asks first'],
  ['allow', 'runs without asking'],
  ['deny', 'denied'],
];

/**
 * A server's tools once, whichever workspaces run it (a row names its workspaces only when not
 * all list it): each with its switch (the `tools` allow-list) and its approval (`[permissions]`).
 */
export function ToolTable({ api, name, details, readOnly, refresh }: Props) {
  const [message, setMessage] = useState<string | undefined>(undefined);
  const rows = toolRows(details);
  if (rows.length === 0) return null;
  const renamed = rows.some((r) => r.exposedName !== undefined && r.exposedName !== r.tool);

  const act = async (what: () => Promise<unknown>) => {
    setMessage(undefined);
    try {
      await what();
    } catch (err) {
      setMessage((err as Error).message);
    }
    await refresh();
  };

  return (
    <section aria-labelledby="tools-heading" class="card">
      <h3 id="tools-heading">Tools</h3>
      <p class="hint">
        The switch offers a tool to clients or not (the server's <code>tools</code> list); its approval is a rule in{' '}
        <code>[permissions]</code>.{renamed && ' Clients see a tool by the name under it.'}
      </p>
      {message && (
        <p class="server-error" role="alert">
          {message}
        </p>
      )}
      <table class="tools-table">
        <thead>
          <tr>
            <th scope="col">Offered</th>
            <th scope="col">Tool</th>
            <th scope="col">Description</th>
            <th scope="col">Approval</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.tool} data-tool={r.tool}>
              <td>
                <label class="switch">
                  <input
                    type="checkbox"
                    role="switch"
                    checked={r.offered}
                    disabled={readOnly}
                    onChange={(e) => void act(() => api.setToolOffered(name, r.tool, e.currentTarget.checked))}
                  />
                  <span class="visually-hidden">Offer {r.tool}</span>
                  <span class="track" aria-hidden="true" />
                </label>
              </td>
              <td>
                <code class="tool-name">{r.tool}</code>
                {r.exposedName !== undefined && r.exposedName !== r.tool && (
                  <span class="hint exposed">
                    {' '}
                    as <code>{r.exposedName}</code>
                  </span>
                )}
                {r.only && <span class="hint"> only in {r.only.join(', ')}</span>}
              </td>
              <td class="description">{r.description ?? ''}</td>
              <td>
                {r.approval === undefined ? (
                  <span class="hint">not offered</span>
                ) : (
                  <select
                    aria-label={`Approval of ${r.tool}`}
                    title={r.why}
                    value={r.approval}
                    disabled={readOnly}
                    onChange={(e) => void act(() => api.setToolApproval(name, r.tool, e.currentTarget.value as ExposedTool['approval']))}
                  >
                    {APPROVALS.map(([value, text]) => (
                      <option key={value} value={value}>
                        {text}
                      </option>
                    ))}
                  </select>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** One row per tool over every workspace's detail, in the server's order. */
export function toolRows(details: Array<{ root: string; detail: WorkspaceServerDetail }>): Row[] {
  const rows = new Map<string, Row & { roots: string[] }>();
  for (const { root, detail } of details) {
    for (const t of detail.exposedTools) {
      const row = rows.get(t.originalName) ?? { tool: t.originalName, offered: true, roots: [] };
      rows.set(t.originalName, {
        ...row,
        exposedName: t.exposedName,
        offered: true,
        approval: t.approval,
        ...(t.description === undefined ? {} : { description: t.description }),
        ...(t.why === undefined ? {} : { why: t.why }),
        roots: [...row.roots, root],
      });
    }
    for (const t of detail.otherTools ?? []) {
      const row = rows.get(t.originalName);
      if (row) {
        row.roots.push(root);
        continue;
      }
      rows.set(t.originalName, {
        tool: t.originalName,
        offered: t.inAllowList,
        ...(t.description === undefined ? {} : { description: t.description }),
        roots: [root],
      });
    }
  }
  return [...rows.values()].map(({ roots, ...row }) => (roots.length < details.length ? { ...row, only: roots } : row));
}
