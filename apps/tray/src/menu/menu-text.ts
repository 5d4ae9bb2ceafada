import type { MenuEntry, MenuModel } from './menu-model.js';

/**
 * The menu as text, one line an item, for golden tests and logs: `[x]` a checked item,
 * `(…)` a greyed one, `▸` a submenu, indented by two spaces a level.
 */
export function menuText(model: MenuModel): string {
  const lines = [`icon: ${model.icon} · tooltip: ${model.tooltip.replace(/\n/g, ' / ')}`];
  const walk = (items: readonly MenuEntry[], depth: number) => {
    for (const entry of items) {
      lines.push(`${'  '.repeat(depth)}${entryText(entry)}`);
      if (entry.kind === 'submenu') walk(entry.items, depth + 1);
    }
  };
  walk(model.items, 0);
  return lines.join('\n');
}

function entryText(entry: MenuEntry): string {
  switch (entry.kind) {
    case 'separator':
      return '────';
    case 'note':
      return `(${entry.text})`;
    case 'button':
      return entry.enabled ? entry.text : `(${entry.text})`;
    case 'check':
      return `${entry.checked ? '[x]' : '[ ]'} ${entry.text}`;
    case 'submenu':
      return `${entry.text} ▸`;
    default: {
      const _exhaustive: never = entry;
      return _exhaustive;
    }
  }
}
