// Finds the operations' paths written in source code: string literals and the literal parts of
// templates (comments are prose and not searched), with or without the API root in front
// (`${API_ROOT}/market/stablecoins` writes a path as surely as '/v1/market/stablecoins').
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { API_ROOT, OPERATIONS_TABLE } from '../../src/api/operations.ts';

/** Each operation's path below the root: '/registry/assets', '/market/stablecoins', … */
const BELOW_ROOT = OPERATIONS_TABLE.paths.map((p) => p.slice(API_ROOT.length));

export interface PathLiteral {
  line: number;
  text: string;
}

/** The literals of `file` (its text read unless given) that hold an operation's path. */
export function operationPathLiterals(
  file: string,
  text = readFileSync(file, 'utf8'),
): PathLiteral[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: PathLiteral[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const literal = node.text;
      if (BELOW_ROOT.some((p) => literal.includes(p)))
        found.push({
          line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
          text: literal,
        });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The .ts files under `roots` (relative to the working directory), minus those under `skip`. */
export function sourceFiles(roots: readonly string[], skip: readonly string[]): string[] {
  return roots
    .flatMap((root) =>
      readdirSync(root, { recursive: true, encoding: 'utf8' }).map((f) => path.join(root, f)),
    )
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .filter((f) => !skip.some((s) => f === s || f.startsWith(`${s}/`)))
    .sort();
}
