import type { Clock } from '@blitz/clock';

/**
 * Settles with `work`, or rejects with `onTimeout()` once `ms` pass on the clock. The work
 * is not cancelled here: the caller closes what it opened.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, clock: Clock, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(onTimeout()), ms);
    work.then(
      (value) => {
        timer.cancel();
        resolve(value);
      },
      (err: unknown) => {
        timer.cancel();
        reject(err);
      },
    );
  });
}
