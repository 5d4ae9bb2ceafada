import type { Menu, MenuItem } from 'systray2';
import { SERVERS_KEY, TOP_LEVEL_KEYS, type MenuEntry, type MenuModel, type TopLevelKey } from '../menu/menu-model.js';

/**
 * systray2 item with the internal id it numbers items by (pre-order from 1, at start-up):
 * `update-item` finds an item by it, and a click carries it back.
 */
export interface NumberedItem extends MenuItem {
  __id: number;
  items?: NumberedItem[];
}

export interface NumberedMenu extends Menu {
  items: NumberedItem[];
}

/** The helper cannot add or remove items after start-up, so servers get this many slots at first. */
const MIN_SERVER_SLOTS = 8;

/** systray2's separator title; its helper cannot hide, retitle or click one. */
const SEPARATOR = '<SEPARATOR>';

/** What a slot holds: a top-level entry, or the n-th item of the servers submenu. */
type Slot = { key: TopLevelKey } | { key: typeof SERVERS_KEY; index: number };

/** The slots in systray2's id order: each top-level key, the servers' slots right after their submenu. */
function slots(capacity: number): Slot[] {
  return TOP_LEVEL_KEYS.flatMap((key): Slot[] =>
    key === SERVERS_KEY ? [{ key }, ...Array.from({ length: capacity }, (_, index) => ({ key, index }))] : [{ key }],
  );
}

/**
 * Server slots for this model: the current number while it fits, else enough rounded up to
 * a multiple of 8, and never fewer than 8, so a menu first drawn with the daemon down does
 * not need a new helper when the servers appear.
 */
export function serverSlots(model: MenuModel, current: number): number {
  const needed = submenuItems(model).length;
  if (current > 0 && needed <= current) return current;
  return Math.max(MIN_SERVER_SLOTS, Math.ceil(needed / MIN_SERVER_SLOTS) * MIN_SERVER_SLOTS);
}

function submenuItems(model: MenuModel): MenuEntry[] {
  const servers = model.items.find((e) => e.key === SERVERS_KEY);
  return servers?.kind === 'submenu' ? servers.items : [];
}

function entryFor(model: MenuModel, slot: Slot): MenuEntry | undefined {
  return 'index' in slot ? submenuItems(model)[slot.index] : model.items.find((e) => e.key === slot.key);
}

/** Every slot as a fresh item (systray2 mutates the objects it is given), flat, without submenu children. */
export function slotItems(model: MenuModel, capacity: number, platform: NodeJS.Platform): NumberedItem[] {
  return slots(capacity).map((slot, i) => toItem(entryFor(model, slot), i + 1, platform));
}

/** The whole menu for a helper's start-up, nested the way systray2 wants it. */
export function initialMenu(model: MenuModel, capacity: number, platform: NodeJS.Platform, icon: string): NumberedMenu {
  const flat = slotItems(model, capacity, platform);
  const layout = slots(capacity);
  const items: NumberedItem[] = [];
  layout.forEach((slot, i) => {
    const item = flat[i]!;
    if (!('index' in slot)) items.push(item);
    if (slot.key === SERVERS_KEY && !('index' in slot)) item.items = flat.filter((_, j) => 'index' in layout[j]!);
  });
  return { icon, title: '', tooltip: model.tooltip, items };
}

/** The entry shown in the slot a click came from; undefined for a slot showing nothing. */
export function entryAt(model: MenuModel, capacity: number, id: number): MenuEntry | undefined {
  const slot = slots(capacity)[id - 1];
  return slot && entryFor(model, slot);
}

/** The items that differ between two drawings: only these are sent. */
export function changedItems(before: readonly NumberedItem[], after: readonly NumberedItem[]): NumberedItem[] {
  return after.filter((item, i) => JSON.stringify(item) !== JSON.stringify(before[i]));
}

/**
 * One entry as a systray2 item. Check marks are drawn into the title on Linux, where the
 * helper's checked flag only appends " (√)" and never takes it off again.
 */
export function toItem(entry: MenuEntry | undefined, id: number, platform: NodeJS.Platform): NumberedItem {
  const base = { __id: id, tooltip: '', checked: false, enabled: true, hidden: false };
  if (!entry) return { ...base, title: '', enabled: false, hidden: true };
  switch (entry.kind) {
    case 'separator':
      return { ...base, title: SEPARATOR };
    case 'note':
      return { ...base, title: entry.text, enabled: false };
    case 'button':
      return { ...base, title: entry.text, enabled: entry.enabled };
    case 'check':
      return platform === 'linux'
        ? { ...base, title: `${entry.checked ? '☑' : '☐'} ${entry.text}` }
        : { ...base, title: entry.text, checked: entry.checked };
    case 'submenu':
      return { ...base, title: entry.text };
    default: {
      const _exhaustive: never = entry;
      return _exhaustive;
    }
  }
}
