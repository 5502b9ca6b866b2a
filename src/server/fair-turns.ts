// Computed answers take turns by caller (issue 37 item 4): one answer per turn of the event loop,
// callers in rotation. A caller who sends many costly requests at once (unpaged `q=`, wide
// filters) then delays another caller by at most one of its answers, not by all of them; answers
// from memory (remembered targets, kept views) never wait here. Bounded: a caller's waiting
// answers are its open requests, and past `maxWaitingPerCaller` an answer is made at once, as it
// was before turns existed, so nothing is refused or held without limit.

/** The turns of one process: `take` runs `job` on the caller's next turn, or at once when full. */
export interface FairTurns {
  take(caller: string, job: () => void): void;
  /** Answers waiting for their turn, all callers together (for tests and metrics). */
  readonly waiting: number;
}

export function fairTurns(maxWaitingPerCaller: number): FairTurns {
  // Insertion order is the rotation: a caller served goes to the back if it still waits.
  const queues = new Map<string, (() => void)[]>();
  let waiting = 0;
  let scheduled = false;

  function schedule(): void {
    if (scheduled || queues.size === 0) return;
    scheduled = true;
    // setImmediate, not a microtask: the event loop reads the sockets between two turns, so a
    // request that just arrived is seen (and, from memory, answered) before the next costly one.
    setImmediate(turn);
  }

  function turn(): void {
    scheduled = false;
    const first = queues.entries().next();
    if (first.done) return;
    const [caller, jobs] = first.value;
    const job = jobs.shift()!;
    queues.delete(caller);
    if (jobs.length > 0) queues.set(caller, jobs);
    waiting--;
    try {
      job();
    } finally {
      schedule();
    }
  }

  return {
    take(caller, job) {
      const jobs = queues.get(caller);
      if (jobs && jobs.length >= maxWaitingPerCaller) return job();
      if (jobs) jobs.push(job);
      else queues.set(caller, [job]);
      waiting++;
      schedule();
    },
    get waiting() {
      return waiting;
    },
  };
}
