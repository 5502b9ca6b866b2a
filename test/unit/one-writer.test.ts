// One writer of status lines (ARCHITECTURE.md "One operations table, one answer per operation"):
// every answer of the node:http server is a decision of src/representation written by
// src/representation/respond.ts. No other module in src/ calls writeHead (the edge's
// authorization answer, OPTIONS and the edge's 404 included), and none replaces the response's
// write functions to read an answer back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { walkFiles } from '../../src/lib/walk.ts';

const WRITER = path.join('src', 'representation', 'respond.ts');

function sources(): string[] {
  return walkFiles('src').filter((f) => /\.(ts|astro|mjs|js)$/.test(f));
}

/** The lines of `file` that match `pattern` (comments included: a commented call is a call to find). */
function hits(file: string, pattern: RegExp): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

/** Any use of a response's writeHead: a call, a bound copy, a computed member. */
const CALLS_WRITE_HEAD = /\.\s*writeHead\b|\[\s*['"`]writeHead['"`]\s*\]/;
const REPLACES_WRITER = /\bres\.(writeHead|write|end)\s*=[^=]/;

describe('one writer of answers', () => {
  it('finds the sources to scan, the writer among them', () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(50);
    expect(files).toContain(WRITER);
    expect(hits(WRITER, CALLS_WRITE_HEAD).length).toBeGreaterThan(0);
  });

  it('no module but the writer calls writeHead', () => {
    const found = sources()
      .filter((f) => f !== WRITER)
      .flatMap((f) => hits(f, CALLS_WRITE_HEAD));
    expect(found).toEqual([]);
  });

  it('no module replaces the response’s write functions', () => {
    expect(sources().flatMap((f) => hits(f, REPLACES_WRITER))).toEqual([]);
  });

  it('the patterns bite', () => {
    expect(CALLS_WRITE_HEAD.test("res.writeHead(404, { 'Content-Length': '0' });")).toBe(true);
    expect(CALLS_WRITE_HEAD.test('const w = res.writeHead.bind(res);')).toBe(true);
    expect(CALLS_WRITE_HEAD.test("res['writeHead'](204);")).toBe(true);
    expect(CALLS_WRITE_HEAD.test('// written in one `writeHead` call')).toBe(false);
    expect(REPLACES_WRITER.test('res.end = ((chunk) => true) as never;')).toBe(true);
    expect(REPLACES_WRITER.test('if (res.end === other) return;')).toBe(false);
  });
});
