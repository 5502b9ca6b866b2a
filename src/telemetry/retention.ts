// Retention in small steps: history older than the longest status window goes in slices of an
// hour of data per statement, with a pause between slices, so that a backlog (a day or a month
// of it, at start after a long stop) never means one long statement, one long lock, or a long
// stretch of the event loop. Runs at start and then periodically; one run at a time.
import type { Store } from '../store/store.ts';
import { sleep } from '../lib/deadline.ts';

const STEP_MINUTES = 60;
const PAUSE_MS = 20;

export class Retention {
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly store: Store;
  private readonly keepMinutes: number;

  constructor(store: Store, keepMinutes: number) {
    this.store = store;
    this.keepMinutes = keepMinutes;
  }

  /** Prunes until nothing is older than the retention; throws on a database failure. */
  run(now = Date.now()): Promise<void> {
    return (this.running ??= this.loop(now).finally(() => (this.running = null)));
  }

  stop(): void {
    this.stopped = true;
  }

  private async loop(now: number): Promise<void> {
    const before = Math.floor(now / 60_000) - this.keepMinutes;
    while (!this.stopped && (await this.store.pruneStep(before, now, STEP_MINUTES)) > 0)
      await sleep(PAUSE_MS);
  }
}
