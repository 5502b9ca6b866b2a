// Issue #14 item 7: logging never stops or kills the service. A full log volume (/dev/full) used
// to crash the server with ENOSPC; a paused log reader used to block the event loop (one /healthz
// took 19 s). Now lines are dropped and counted (tai_log_lines_dropped_total) and errors reported
// on stderr, while the service keeps answering.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

/** Starts the built server with the given stdout; resolves with its port (from the IPC message). */
function start(stdout: 'pipe' | number, env: Record<string, string> = {}): Promise<number> {
  child = fork(path.resolve('src/server/main.ts'), [], {
    env: {
      ...process.env,
      PORT: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tai-log-')),
      RATE_LIMIT_DEMO: '1000000/60',
      ...env,
    },
    stdio: ['ignore', stdout, 'pipe', 'ipc'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  (child as ChildProcess & { errText: () => string }).errText = () => err;
  return new Promise((resolve, reject) => {
    child!.on('message', (m: { type?: string; port?: number }) => m.port && resolve(m.port));
    child!.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}
const stderrOf = () => (child as ChildProcess & { errText: () => string }).errText();

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
function get(port: number, p: string): Promise<{ status: number; body: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(
        { port, host: '127.0.0.1', path: p, agent, headers: { 'x-api-key': 'DEMO_KEY' } },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () =>
            resolve({ status: res.statusCode!, body, ms: performance.now() - t0 }),
          );
        },
      )
      .on('error', reject);
  });
}
async function load(port: number, requests: number) {
  let sent = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (sent++ < requests) await get(port, '/v1/registry/asset?tfin=TFIN-DEBT-ETH-2021-0001');
    }),
  );
}
const metric = (text: string, name: string) =>
  Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);

describe('a full log destination', () => {
  it('with stdout on /dev/full: the server keeps answering, counts dropped lines, reports on stderr', async () => {
    const port = await start(openSync('/dev/full', 'w'));
    await load(port, 300);
    await new Promise((r) => setTimeout(r, 1200)); // the batch is written at least every second
    const health = await get(port, '/healthz');
    expect(health.status).toBe(200);
    const metrics = await get(port, '/metrics');
    expect(metric(metrics.body, 'tai_log_lines_dropped_total')).toBeGreaterThan(0);
    expect(metric(metrics.body, 'tai_log_write_errors_total')).toBeGreaterThan(0);
    expect(stderrOf()).toContain('ENOSPC');
    expect(child!.exitCode).toBe(null);
  });

  it('with LOG_DESTINATION=/dev/full: the same', async () => {
    const port = await start('pipe', { LOG_DESTINATION: '/dev/full' });
    await load(port, 100);
    await new Promise((r) => setTimeout(r, 1200));
    expect((await get(port, '/healthz')).status).toBe(200);
    expect(
      metric((await get(port, '/metrics')).body, 'tai_log_lines_dropped_total'),
    ).toBeGreaterThan(0);
    expect(child!.exitCode).toBe(null);
  });
});

describe('a stalled log reader', () => {
  it('does not block the event loop: /healthz answers promptly while lines are dropped', async () => {
    // stdout is a pipe this test never reads: it fills after ~64 KB.
    const port = await start('pipe', { LOG_BUFFER_BYTES: '65536' });
    child!.stdout!.pause();
    await load(port, 3000);
    await new Promise((r) => setTimeout(r, 1200));
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const h = await get(port, '/healthz');
      expect(h.status).toBe(200);
      times.push(h.ms);
    }
    expect(Math.max(...times)).toBeLessThan(500);
    const metrics = await get(port, '/metrics');
    expect(metric(metrics.body, 'tai_log_lines_dropped_total')).toBeGreaterThan(0);
    expect(metric(metrics.body, 'tai_log_queued_bytes')).toBeLessThanOrEqual(65_536);
    expect(child!.exitCode).toBe(null);
  });
});
