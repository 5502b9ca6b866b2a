// RFC 4180 fields as the bulk representations write them (src/api/bulk.ts).
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvField, csvHeader, csvRow, type Column } from '../../src/api/bulk.ts';

describe('csvField', () => {
  it('quotes only what needs quoting and doubles quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('cr\rlf')).toBe('"cr\rlf"');
    expect(csvField(' padded ')).toBe(' padded ');
    expect(csvField('Société Générale')).toBe('Société Générale');
  });
  it('writes null as an empty field, numbers and booleans as JSON writes them, lists joined with ;', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(0)).toBe('0');
    expect(csvField(1.5e21)).toBe('1.5e+21');
    expect(csvField(false)).toBe('false');
    expect(csvField(['ETH', 'POL'])).toBe('ETH;POL');
    expect(csvField(['a,b', null])).toBe('"a,b;"');
  });
  it('neutralises formula-leading text (OWASP CSV injection), never numbers (issue #25)', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvField('+49 30 1234')).toBe(`"'+49 30 1234"`);
    expect(csvField('-2+3')).toBe(`"'-2+3"`);
    expect(csvField('\t=1')).toBe(`"'\t=1"`);
    expect(csvField('\r=1')).toBe(`"'\r=1"`);
    expect(csvField(['=cmd', 'b'])).toBe(`"'=cmd;b"`);
    // Not at the start, or not text: untouched.
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField(-1.5)).toBe('-1.5');
    expect(csvField(-0)).toBe('0');
    expect(parse(`${csvField('=1+1')}\r\n`)).toEqual([["'=1+1"]]);
  });
  it('round-trips through a standard RFC 4180 parser', () => {
    type R = { a: string; b: number | null };
    const columns: Column<R>[] = [
      { name: 'a', value: (r) => r.a },
      { name: 'b', value: (r) => r.b },
    ];
    const records: R[] = [
      { a: 'x,"y"\r\nz', b: 1 },
      { a: '', b: null },
    ];
    const text = csvHeader(columns) + records.map((r) => csvRow(columns, r)).join('');
    expect(parse(text)).toEqual([
      ['a', 'b'],
      ['x,"y"\r\nz', '1'],
      ['', ''],
    ]);
  });
});
