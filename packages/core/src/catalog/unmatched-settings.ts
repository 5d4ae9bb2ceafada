import type { Exposure } from '../config/server-config.js';
import { unusedOverrides } from './tool-exposure.js';

/**
 * A server's tool setting naming what its tools do not, known only once it has listed them: an
 * entry of `tools` it does not offer, a `tool_exposure` key matching none of them. A warning
 * each, worded by whoever shows it with where the setting is written, which an edit that
 * changes no setting may move.
 */
export type UnmatchedSetting = { kind: 'tools'; name: string } | { kind: 'tool_exposure'; key: string };

/** What a server's `tools` and `tool_exposure` name that its `offered` tools (original names) do not. */
export function unmatchedSettings(
  offered: readonly string[],
  allow: readonly string[] | undefined,
  toolExposure: Readonly<Record<string, Exposure>> | undefined,
): UnmatchedSetting[] {
  const names = new Set(offered);
  return [
    ...(allow ?? []).filter((name) => !names.has(name)).map((name): UnmatchedSetting => ({ kind: 'tools', name })),
    ...unusedOverrides(offered, toolExposure ?? {}).map((key): UnmatchedSetting => ({ kind: 'tool_exposure', key })),
  ];
}

/** The field it is written in, as the settings loader names fields (`serverLine`): `tools`, `tool_exposure.<key>`. */
export function unmatchedField(setting: UnmatchedSetting): string {
  return setting.kind === 'tools' ? 'tools' : `tool_exposure.${setting.key}`;
}

/** What is wrong with it, said after the field's name. */
export function unmatchedMessage(setting: UnmatchedSetting): string {
  return setting.kind === 'tools'
    ? `lists ${JSON.stringify(setting.name)}, which the server does not offer`
    : 'matches no tool the server offers';
}

/** The server warning of it, naming the file (and line) it is written in when known. */
export function unmatchedSettingWarning(setting: UnmatchedSetting, file?: string, line?: number): string {
  const subject = setting.kind === 'tools' ? 'tools' : `tool_exposure ${JSON.stringify(setting.key)}`;
  const at = file === undefined ? '' : ` (${file}${line === undefined ? '' : `:${line}`})`;
  return `${subject} ${unmatchedMessage(setting)}${at}`;
}
