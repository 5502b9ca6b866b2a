// Racing a promise against a deadline: one helper for every "answer within N ms" in the service.

/**
 * `p`, or after `ms` the value `onTimeout()` returns (or throws); the timer is cleared once `p`
 * settles. The deadline measures the peer, not our own event loop: it is counted in steps of a
 * quarter, and a step that fires late (the process was starved of CPU: a busy loop, a throttled
 * container, a stop) counts as at most one and a half steps; when it is spent, the verdict still
 * waits for the loop's I/O phase (setImmediate), so an answer that arrived meanwhile wins.
 * Without that, a starved instance took a healthy Redis for a dead one (issue #25). While the
 * loop keeps time, the deadline is `ms` of wall time, as before.
 */
export function withDeadline<T, U = T>(
  p: Promise<T>,
  ms: number,
  onTimeout: () => U,
): Promise<T | U> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<U>((resolve, reject) => {
    const verdict = () => {
      try {
        resolve(onTimeout());
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    };
    const step = Math.max(1, ms / 4);
    let counted = 0;
    let last = performance.now();
    const tick = () => {
      const now = performance.now();
      counted += Math.min(now - last, step * 1.5);
      last = now;
      if (counted >= ms) setImmediate(verdict);
      else timer = setTimeout(tick, Math.min(step, ms - counted));
    };
    timer = setTimeout(tick, step);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/** `p`, or undefined once `ms` have passed. */
export const within = <T>(p: Promise<T>, ms: number): Promise<T | undefined> =>
  withDeadline(p, ms, () => undefined);

/** A promise resolved after `ms`. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
