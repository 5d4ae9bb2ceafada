import { DEFAULT_FILE_LABEL, findServer, locateServers } from './locate-servers.js';
import { setServerFields, type FieldChanges } from './set-server-fields.js';

/**
 * Disables or enables an entry in place, through the field changes `disabledChanges` plans.
 */
export function setServerDisabled(text: string, name: string, disabled: boolean, file: string = DEFAULT_FILE_LABEL): string {
  return setServerFields(text, name, disabledChanges(text, name, disabled, file), file);
}

/**
 * What turning an entry off or on changes. Off: an existing `disabled` becomes true and an
 * `enabled` (Codex alias) false, each keeping its comment; with neither, `disabled = true` is
 * added. On: `enabled` becomes true and `disabled` goes (false is the default, so disable then
 * enable gives the file back) — unless its line carries a comment, which is the user's: then
 * it is set to false.
 */
export function disabledChanges(text: string, name: string, disabled: boolean, file: string = DEFAULT_FILE_LABEL): FieldChanges {
  const layout = locateServers(text, file);
  const block = findServer(layout, name, file);
  const flags = layout.lines
    .slice(block.headerLine + 1, block.mainEnd)
    .flatMap((l) => (l.kind === 'key-value' && l.path.length === 1 ? [l] : []));
  const enabledLine = flags.find((l) => l.path[0] === 'enabled');
  const disabledLine = flags.find((l) => l.path[0] === 'disabled');
  const changes: Record<string, boolean | undefined> = {};
  if (enabledLine) changes['enabled'] = !disabled;
  if (disabled) {
    if (disabledLine || !enabledLine) changes['disabled'] = true;
  } else if (disabledLine) {
    const commented = text.slice(disabledLine.valueEnd, disabledLine.end).includes('#');
    changes['disabled'] = commented ? false : undefined;
  }
  return changes;
}
