import notifier from 'node-notifier';
import type { DesktopNotification } from './notification-text.js';

export interface Notifier {
  notify(notification: DesktopNotification): void;
}

/**
 * Desktop notifications through node-notifier (`notify-send` on Linux, Notification Center
 * on macOS, toasts on Windows). Fire and forget: a missing notification service must not
 * stop the tray, so only the first failure is logged. `icon` is the path of the Blitz icon
 * (see `notificationIcon`), shown with each notification; `errorIcon`, in the attention colour, with a failure's.
 */
export function desktopNotifier(platform: NodeJS.Platform, log: (message: string) => void, icon?: string, errorIcon?: string): Notifier {
  let warned = false;
  return {
    notify({ title, message, error }) {
      // `app-name` is notify-send's own flag; other backends would pass it on as a bad option.
      const shown = error ? (errorIcon ?? icon) : icon;
      const base = { title, message, wait: false, ...(shown === undefined ? {} : { icon: shown }) };
      const options = platform === 'linux' ? { ...base, 'app-name': 'Blitz' } : base;
      // node-notifier hands over an Error when notify-send fails, but also a string — its
      // stderr — when it succeeds with a warning: only an Error is a failure.
      notifier.notify(options, (err: unknown) => {
        if (err instanceof Error && !warned) {
          warned = true;
          log(`desktop notifications do not work here: ${err.message.trim()}`);
        }
      });
    },
  };
}
