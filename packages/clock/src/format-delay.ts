/**
 * A delay as users read it: `15s`, `2m30s`, `5m`, `1h2m`, the one wording of the CLI, the
 * daemon's messages and the tray. Rounded up to the second, so a pause with 200 ms left says
 * `1s`, never `0s` while calls are still refused.
 */
export function formatDelay(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const parts = [hours > 0 ? `${hours}h` : '', minutes > 0 ? `${minutes}m` : '', seconds > 0 ? `${seconds}s` : ''];
  return parts.join('') || '0s';
}
