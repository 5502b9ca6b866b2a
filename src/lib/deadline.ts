// Racing a promise against a deadline: one helper for every "answer within N ms" in the service.

/**
 * `p`, or after `ms` the value `onTimeout()` returns (or throws); the timer is cleared once `p`
 * settles. The deadline measures the peer, not our own event loop: when the timer fires, the
 * verdict waits for the loop's I/O phase (setImmediate), so an answer that already arrived while
 * the process was starved of CPU (a busy loop, a throttled container) is read first and wins.
 * Without that, a starved instance took a healthy Redis for a dead one (issue #25).
 */
export function withDeadline<T, U = T>(
  p: Promise<T>,
  ms: number,
  onTimeout: () => U,
): Promise<T | U> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<U>((resolve, reject) => {
    timer = setTimeout(
      () =>
        setImmediate(() => {
          try {
            resolve(onTimeout());
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        }),
      ms,
    );
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/** `p`, or undefined once `ms` have passed. */
export const within = <T>(p: Promise<T>, ms: number): Promise<T | undefined> =>
  withDeadline(p, ms, () => undefined);

/** A promise resolved after `ms`. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
