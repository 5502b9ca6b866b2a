// JSON API answers as importer input (DefiLlama's stablecoins API, GLEIF's LEI records): strict
// UTF-8, strict JSON, and every problem named by its JSON path and the line it sits on, so that a
// data editor can open the saved answer at the right place or report the API's change of format.
// Used by the stablecoins and gleif importers.
import { LineCounter, parseDocument } from 'yaml';
import { ImportError } from './errors.ts';
import { decodeUtf8, type SourceInput } from './input.ts';

export type JsonPath = readonly (string | number)[];
export type JsonObject = Record<string, unknown>;

/** `peggedAssets[2].circulating.peggedUSD`, as the path is shown in messages. */
export const pathText = (at: JsonPath) =>
  at.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');

/** 1-based line and column of a character offset. */
function lineAndColumn(text: string, offset: number): { line?: number; column?: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

export class JsonInput {
  readonly name: string;
  readonly text: string;
  readonly value: unknown;

  constructor(input: Pick<SourceInput, 'name' | 'bytes'>) {
    this.name = input.name;
    this.text = decodeUtf8(input);
    this.value = this.parse();
  }

  private parse(): unknown {
    try {
      return JSON.parse(this.text);
    } catch (error) {
      const message = (error as Error).message;
      const position = /at position (\d+)/.exec(message)?.[1];
      const atEnd = /end of JSON input/.test(message);
      const offset = position === undefined ? (atEnd ? this.text.length : null) : Number(position);
      // A download cut short ends inside a value: the parser runs out of text, or out of a string.
      const truncated =
        atEnd || /Unterminated string/.test(message) || (offset ?? 0) >= this.text.trimEnd().length;
      const where = offset === null ? {} : lineAndColumn(this.text, offset);
      throw new ImportError(
        { input: this.name, row: where.line, column: where.column },
        truncated
          ? 'the JSON ends before the document is complete (a truncated download?)'
          : `is not valid JSON (${message.replace(/ in JSON at position.*$/, '').replace(/, ".*"(\.\.\.)? is not valid JSON$/s, '')})`,
        'the complete JSON answer of the API, saved as it was sent',
      );
    }
  }

  /** The line of the value at `at`, or of its nearest parent that exists (error path only). */
  lineOf(at: JsonPath): number | undefined {
    const lineCounter = new LineCounter();
    const doc = parseDocument(this.text, { lineCounter, uniqueKeys: false });
    for (let n = at.length; n >= 0; n--) {
      const node = doc.getIn(at.slice(0, n), true) as
        { range?: [number, number, number] } | undefined;
      if (node?.range) return lineCounter.linePos(node.range[0]).line;
    }
    return undefined;
  }

  fail(at: JsonPath, problem: string, expected: string): never {
    throw new ImportError(
      { input: this.name, row: this.lineOf(at) },
      at.length ? `${pathText(at)}: ${problem}` : problem,
      expected,
    );
  }

  /** The value at `at` in `parent`, which must exist and be of the type `kind` describes. */
  get<T>(
    parent: JsonObject,
    at: JsonPath,
    kind: 'string' | 'number' | 'object' | 'array',
    expected: string,
  ): T {
    const key = at[at.length - 1]!;
    const value = parent[key];
    if (value === undefined || value === null)
      this.fail(at.slice(0, -1), `"${String(key)}" is missing`, expected);
    const ok =
      kind === 'array'
        ? Array.isArray(value)
        : kind === 'object'
          ? typeof value === 'object' && !Array.isArray(value)
          : kind === 'string'
            ? typeof value === 'string' && value.trim() !== ''
            : typeof value === 'number' && Number.isFinite(value);
    if (!ok)
      this.fail(
        at,
        `is ${JSON.stringify(value).slice(0, 40)}, not ${/^[ao]/.test(kind) ? 'an' : 'a'} ${kind}`,
        expected,
      );
    return value as T;
  }
}
