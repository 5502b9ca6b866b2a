// The build's streamed files (src/lib/lines.ts fileLines, src/lib/file-writer.ts, the pack
// writer): a file is read and written in chunks, so lines and UTF-8 characters straddle chunk
// boundaries; the result must be what reading or writing it whole gives.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { fileWriter } from '../../src/lib/file-writer.ts';
import { fileLines, lineSpans } from '../../src/lib/lines.ts';
import { openPack, packWriter } from '../../src/dataset/profile-pack.ts';
import { compress } from '../../src/lib/compression.ts';

const root = mkdtempSync(path.join(tmpdir(), 'tai-file-lines-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Lines of every length from empty to 1.5 MB, with multi-byte characters at odd offsets. */
function sampleLines(): string[] {
  const lines: string[] = [];
  for (let i = 0; i < 4000; i++) lines.push(`${i}\t${'é€𝄞x'.repeat(i % 97)}${'a'.repeat(i % 13)}`);
  lines.splice(1234, 0, '', 'ü'.repeat(1_500_000 / 2), '');
  return lines;
}

describe('fileLines', () => {
  it('reads the non-empty lines of a file larger than its chunk, as reading it whole does', () => {
    const text = sampleLines().join('\n');
    expect(Buffer.byteLength(text)).toBeGreaterThan(3 * (1 << 20));
    for (const ending of ['\n', '']) {
      const file = path.join(root, `lines${ending ? '-nl' : ''}.txt`);
      writeFileSync(file, text + ending);
      const bytes = readFileSync(file);
      const whole = [...lineSpans(bytes)].map(([s, e]) => bytes.toString('utf8', s, e));
      expect([...fileLines(file)]).toEqual(whole);
      expect(whole).toEqual(text.split('\n').filter(Boolean));
    }
  });

  it('reads an empty file as no lines', () => {
    const file = path.join(root, 'empty.txt');
    writeFileSync(file, '');
    expect([...fileLines(file)]).toEqual([]);
  });
});

describe('fileWriter', () => {
  it('writes text and bytes in order and counts the bytes written', () => {
    const file = path.join(root, 'written.txt');
    const writer = fileWriter(file);
    const parts = sampleLines().map((l, i) => (i % 2 ? Buffer.from(`${l}\n`) : `${l}\n`));
    let expected = 0;
    for (const part of parts) {
      writer.write(part);
      expected += Buffer.byteLength(part);
      expect(writer.bytes).toBe(expected);
    }
    writer.close();
    expect(readFileSync(file).equals(Buffer.concat(parts.map((p) => Buffer.from(p))))).toBe(true);
  });
});

describe('packWriter', () => {
  it('packs bodies that the reader gives back, in order, and refuses a count other than announced', async () => {
    // More bodies than are compressed at once, of varied sizes (they finish out of order).
    const bodies = Array.from({ length: 600 }, (_, i) =>
      JSON.stringify({ i, text: 'é'.repeat((i * 7919) % 5000) }),
    );
    const out = path.join(root, 'bodies.pack');
    const pack = packWriter(out, bodies.length);
    for (const [i, b] of bodies.entries()) await pack.add(`T${i}`, Buffer.from(b));
    expect(await pack.close()).toBe(bodies.length);
    const opened = openPack(out);
    expect(opened.entries.map((e) => e.tfin)).toEqual(bodies.map((_, i) => `T${i}`));
    opened.entries.forEach((e, i) => {
      const codings = opened.read(e);
      const body = Buffer.from(bodies[i]!);
      expect(codings.identity?.equals(body)).toBe(true);
      // The thread pool's bytes are the synchronous compressor's (the build's are compared).
      expect(codings.gzip.equals(compress(body, 'gzip', 'max'))).toBe(true);
      expect(codings.br?.equals(compress(body, 'br', 'max'))).toBe(true);
      expect(gunzipSync(codings.gzip).equals(body)).toBe(true);
    });
    const short = packWriter(path.join(root, 'short.pack'), 2);
    await short.add('T0', Buffer.from(bodies[0]!));
    await expect(short.close()).rejects.toThrow(/announced 2 profiles and given 1/);
  });
});
