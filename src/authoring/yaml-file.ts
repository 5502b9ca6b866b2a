// Reads a YAML data file, keeping positions so that every problem can point at a line.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import type { YamlFile } from '../dataset/loaded.ts';
import type { DataProblem } from './problems.ts';

export type { YamlFile };

export function relativeName(absolute: string, root: string): string {
  return path.relative(root, absolute).split(path.sep).join('/');
}

/** What parsing one file yields, as plain data: it may cross from a worker thread. */
export interface ParsedYaml {
  value: unknown;
  problems: DataProblem[];
}

export function parseYamlFile(absolute: string, root: string): ParsedYaml {
  const { doc, lineCounter } = parse(absolute);
  const problems: DataProblem[] = doc.errors.map((err) => {
    const pos = lineCounter.linePos(err.pos[0]);
    return {
      file: relativeName(absolute, root),
      path: [],
      line: pos.line,
      column: pos.col,
      message: `YAML syntax error: ${err.message.split('\n')[0]}`,
      fix: 'correct the YAML syntax at this position (indentation, quotes, a missing colon or a duplicate key)',
      rule: 'yaml-syntax',
    };
  });
  return { value: problems.length ? undefined : doc.toJS({ maxAliasCount: 0 }), problems };
}

/** A parsed file with the means to point at a line inside it. */
export function yamlFile(absolute: string, root: string, value: unknown): YamlFile {
  // The parse tree is not kept (a registry of 100,000 files would hold gigabytes of it): a problem
  // found later re-reads the file to find its line, which only happens when there is a problem.
  const locate = (at: readonly (string | number)[]) => {
    const { doc, lineCounter } = parse(absolute);
    for (let depth = at.length; depth >= 0; depth--) {
      const node = doc.getIn(at.slice(0, depth), true);
      if (isNode(node) && node.range) {
        const pos = lineCounter.linePos(node.range[0]);
        return { line: pos.line, column: pos.col };
      }
    }
    return null;
  };
  return { file: relativeName(absolute, root), value, locate };
}

function parse(absolute: string): { doc: Document; lineCounter: LineCounter } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(readFileSync(absolute, 'utf8'), {
    lineCounter,
    prettyErrors: false,
    uniqueKeys: true,
  });
  return { doc, lineCounter };
}

export function problemAt(
  file: YamlFile,
  at: (string | number)[],
  rule: string,
  message: string,
  fix: string,
): DataProblem {
  const pos = file.locate(at);
  return {
    file: file.file,
    path: at,
    line: pos?.line ?? null,
    column: pos?.column ?? null,
    message,
    fix,
    rule,
  };
}
