// CPU pinning for the benchmark, when the machine has two cores or more and `taskset` (util-linux):
// the servers share the last core, the load generator takes the first. Without it the scheduler
// moves the server, its thread pool and the load generator between cores mid-run, and two runs of
// the same server differ by up to a third; pinned, the servers also meet the same core each round.
// BENCH_PIN=0 turns it off.
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';

const TASKSET = ['/usr/bin/taskset', '/bin/taskset'].find(existsSync);
const CORES = cpus().length;

/** Whether commands are pinned in this run. */
export const PINNED = TASKSET !== undefined && CORES >= 2 && process.env['BENCH_PIN'] !== '0';

/** `command args` run on the servers' core (`server`) or the load generator's (`load`). */
export function pinned(
  role: 'server' | 'load',
  command: string,
  args: string[],
): [string, string[]] {
  if (!PINNED) return [command, args];
  const core = role === 'server' ? CORES - 1 : 0;
  // taskset execs the command: the child's pid is the command's.
  return [TASKSET!, ['-c', String(core), command, ...args]];
}

/** How the run was placed, for the report. */
export const placement = (): string =>
  PINNED
    ? `servers pinned to core ${CORES - 1}, the load generator to core 0 (taskset; BENCH_PIN=0 to turn off)`
    : 'not pinned';
