/** Left-aligned columns separated by two spaces; the last column is not padded. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return renderRows([header, ...rows]);
}

/** Rows in left-aligned columns, as renderTable lays them out, without a header. */
export function renderRows(rows: readonly (readonly string[])[]): string {
  const columns = Math.max(0, ...rows.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return rows.map(line).join('\n');
}
