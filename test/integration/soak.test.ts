// A bounded soak: phases of mixed traffic; open handles return to their level and memory shows
// no growth trend (the time-based version with a report is `npm run bench:soak`).
import { describe, expect, it } from 'vitest';
import { drive, sample } from '../../bench/soak.ts';
import { startServer } from '../helpers/server.ts';

describe('soak', () => {
  it('keeps memory and open handles flat over phases of mixed traffic', async () => {
    // A capped heap: a leak cannot hide in lazy GC (it would grow RSS to the cap or crash the
    // server), and the normal working set settles quickly.
    const server = await startServer({
      LOG_LEVEL: 'info',
      NODE_OPTIONS: '--max-old-space-size=128',
    });
    const pid = server.child.pid!;
    try {
      // Warm-up: JIT, caches, zlib state and allocator arenas grow to their working size first
      // (with the heap capped at 64 MB the same curve plateaus: growth here is not a leak).
      await drive(server.url, 20, { count: 10_000 });
      const samples: { rssMb: number; fds: number }[] = [];
      for (let phase = 0; phase < 6; phase++) {
        await drive(server.url, 20, { count: 2500 });
        await new Promise((r) => setTimeout(r, 200));
        samples.push(sample(pid));
      }
      expect(server.child.exitCode).toBeNull();
      const fds = samples.map((s) => s.fds);
      expect(Math.max(...fds) - fds[0]!, `fds ${fds.join(', ')}`).toBeLessThanOrEqual(5);
      const rss = samples.map((s) => s.rssMb);
      const firstHalf = (rss[0]! + rss[1]! + rss[2]!) / 3;
      const secondHalf = (rss[3]! + rss[4]! + rss[5]!) / 3;
      // 15,000 requests after warm-up: a leak of 4 KB per request would add 30 MB between the halves.
      expect(secondHalf - firstHalf, `RSS ${rss.join(', ')} MB`).toBeLessThan(30);
      expect(
        rss[5]! - Math.max(rss[0]!, rss[1]!, rss[2]!),
        `RSS ${rss.join(', ')} MB`,
      ).toBeLessThan(30);
    } finally {
      await server.stop();
    }
  });
});
