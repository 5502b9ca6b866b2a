// Issue #25 item 3: importers that cannot destroy. Each guard is tried through the real CLI
// (scripts/data-import.ts) on real files and a real HTTP server: a header-only register with
// --write, an input past the size cap (a file, and an answer that never ends), and text with
// a bidi override or a control character.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { recordCount } from '../../src/importers/shared/shrink-guard.ts';
import { refuseUnsafeTextIn, unsafeTextReason } from '../../src/importers/shared/text-guard.ts';

const FIXTURES = path.resolve('test/fixtures/importers/esma');
const CASPS = `${FIXTURES}/2026-08-17-casps.csv`;
const REGISTER = 'data/mica/register/casps.yaml';

let root: string;
let scratch: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'tai-guards-'));
  scratch = mkdtempSync(path.join(tmpdir(), 'tai-guards-in-'));
  cpSync(`${FIXTURES}/data`, path.join(root, 'data'), { recursive: true });
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

type Outcome = { code: number; stdout: string; stderr: string };
const cli = (...args: string[]): Promise<Outcome> =>
  promisify(execFile)(process.execPath, ['scripts/data-import.ts', ...args, '--root', root], {
    env: { ...process.env, TAI_TODAY: '2026-11-22' },
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: Outcome) => e,
  );

/** The CASPS fixture with one cell replaced, written as a new input file. */
function caspsWith(name: string, from: string, to: string): string {
  const text = readFileSync(CASPS, 'utf8');
  expect(text).toContain(from);
  const file = path.join(scratch, name);
  writeFileSync(file, text.replace(from, to));
  return file;
}

describe('an import never wipes a register', () => {
  test('a header-only register with --write is refused, and written only with --allow-shrink', async () => {
    expect((await cli('esma', '--file', CASPS, '--write')).code).toBe(0);
    const before = readFileSync(path.join(root, REGISTER), 'utf8');
    const held = recordCount(parse(before));
    expect(held).toBeGreaterThan(2);

    const headerOnly = path.join(scratch, '2026-09-01-casps.csv');
    writeFileSync(headerOnly, readFileSync(CASPS, 'utf8').split('\n')[0] + '\n');
    const refused = await cli('esma', '--file', headerOnly, '--write');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `${REGISTER}: the import would leave 0 of its ${held} records (100 % removed; at most 50 % without --allow-shrink)
    expected: a complete source file; check that the input is not empty, truncated or an error page.
    If the source really dropped these records, run again with --allow-shrink.
Nothing was written.
`,
    );
    expect(readFileSync(path.join(root, REGISTER), 'utf8')).toBe(before);

    // Without --write the diff is shown, with the same warning.
    const dry = await cli('esma', '--file', headerOnly);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('would leave 0 of its');

    const allowed = await cli('esma', '--file', headerOnly, '--write', '--allow-shrink');
    expect(allowed.code).toBe(0);
    expect(recordCount(parse(readFileSync(path.join(root, REGISTER), 'utf8')))).toBe(0);
  });

  test('records are the objects in lists, at any depth; scalar lists are attributes', () => {
    expect(recordCount({ a: [{ x: [1, 2] }, { y: [{ z: 1 }] }], b: 'c' })).toBe(3);
    expect(recordCount({ entities: [] })).toBe(0);
  });
});

describe('input size is capped while reading', () => {
  test('a file past the cap is refused before it is read', async () => {
    const big = path.join(scratch, 'big.csv');
    writeFileSync(big, '');
    truncateSync(big, 33 * 1024 * 1024); // sparse: past the 32 MiB default
    const out = await cli('esma', '--file', big, '--write');
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      `${big}: is larger than the 33554432 bytes an import reads (34603008 bytes)
    expected: a source file under 32 MiB; if the source really grew, run again with --max-input-mb set above its size
Nothing was written.
`,
    );
  });

  describe('an answer that never ends', () => {
    let server: Server;
    let base: string;
    beforeAll(async () => {
      // Sends CSV rows forever, without Content-Length: only the cap stops the download.
      server = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/csv' });
        const row = Buffer.alloc(64 * 1024, 'a,');
        const more = () => {
          while (res.write(row));
          res.once('drain', more);
        };
        res.on('close', () => res.removeAllListeners('drain'));
        more();
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    afterAll(() => {
      server.closeAllConnections();
      server.close();
    });

    test('is abandoned once it passes the cap, in bounded memory', async () => {
      const started = Date.now();
      // The child reports its own peak resident memory as it exits.
      const report =
        'data:text/javascript,process.on("exit",()=>process.stderr.write(`maxrss_kb=${process.resourceUsage().maxRSS}\\n`))';
      const child = promisify(execFile)(
        process.execPath,
        [
          '--import',
          report,
          'scripts/data-import.ts',
          'esma',
          '--url',
          `${base}/CASPS.csv`,
          '--max-input-mb',
          '64',
          '--root',
          root,
        ],
        { env: { ...process.env } },
      ).catch((e: Outcome) => e);
      const out = (await child) as Outcome;
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(
        `${base}/CASPS.csv: is larger than the 67108864 bytes an import reads (more than that arrived)`,
      );
      // The cap, plus the runtime (about 100 MB for node with the importer loaded), never the stream.
      const rss = Number(/maxrss_kb=(\d+)/.exec(out.stderr)![1]) * 1024;
      console.log(`peak RSS of the capped import: ${Math.round(rss / 1024 / 1024)} MiB`);
      expect(rss).toBeLessThan(64 * 1024 * 1024 + 250 * 1024 * 1024);
      expect(Date.now() - started).toBeLessThan(60_000);
    });
  });
});

describe('text with control characters or bidi overrides is refused', () => {
  test('a bidi override in a register name names the file, row and column', async () => {
    const file = caspsWith('rlo.csv', 'Alpha Crypto S.A.', 'Alpha \u202eA.S otpyrC');
    const out = await cli('esma', '--file', file, '--write');
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(
      new RegExp(
        `^${file.replaceAll('.', '\\.')}, row 2, column ae_lei_name: holds the bidi control U\\+202E at character 7\n    expected: plain text without control characters`,
      ),
    );
  });

  test('a control character is refused the same way', async () => {
    const file = caspsWith('bell.csv', 'Alpha Crypto S.A.', 'Alpha\u0007 Crypto S.A.');
    const out = await cli('esma', '--file', file);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(
      'row 2, column ae_lei_name: holds the control character U+0007 at character 6',
    );
  });

  test('the last check before writing covers every importer: file and path named', () => {
    expect(() =>
      refuseUnsafeTextIn({ entities: [{ name: 'ok' }, { name: 'a\u2066b' }] }, 'data/x.yaml'),
    ).toThrow('data/x.yaml, column entities[1].name: holds the bidi control U+2066 at character 2');
    // Tabs and line breaks are text; a formula is refused, a leading sign alone is text (CSV
    // writing still quotes it); one bound on length for every text.
    expect(unsafeTextReason('a\tb\r\nc')).toBeNull();
    expect(unsafeTextReason('=HYPERLINK("x")')).toContain('spreadsheet formula');
    expect(unsafeTextReason("+cmd|' /C calc'!A0")).toContain('spreadsheet formula');
    expect(unsafeTextReason('@SUM(1+1)')).toContain('spreadsheet formula');
    expect(unsafeTextReason('-0.5 % since the last report')).toBeNull();
    expect(
      unsafeTextReason('@exodus/assets-base 8.0.101 (Exodus wallet asset definitions)'),
    ).toBeNull();
    expect(unsafeTextReason('x'.repeat(5_001))).toContain('5,001 characters long');
    expect(unsafeTextReason('x'.repeat(5_000))).toBeNull();
    expect(unsafeTextReason('\u0085')).toContain('U+0085');
  });
});
