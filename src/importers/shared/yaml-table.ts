// A YAML table an importer is configured by (a universe or product table under data/), read and
// checked against its zod shape; a missing file, bad YAML or a shape error is an ImportError
// naming the file, the path inside it and what was expected.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { z } from 'zod';
import { ImportError } from './errors.ts';

export function readYamlTable<S extends z.ZodType>(
  root: string,
  file: string,
  schema: S,
  what: string,
): z.infer<S> {
  let raw: unknown;
  try {
    raw = parse(readFileSync(path.join(root, file), 'utf8'));
  } catch (error) {
    throw new ImportError(
      { input: file },
      `cannot be read (${(error as Error).message.split('\n')[0]})`,
      what,
    );
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ImportError(
      { input: `${file}: ${issue.path.join('.')}` },
      issue.message,
      'the shape described at the top of the file',
    );
  }
  return parsed.data;
}

/** The TFIC table's category names by code (`FUND.MMFD` → "Money-market fund"). */
export function tficNames(root: string): Map<string, string> {
  const table = parse(readFileSync(path.join(root, 'data/codes/tfic.yaml'), 'utf8')) as {
    classes: { code: string; categories: { code: string; name: string }[] }[];
  };
  return new Map(
    table.classes.flatMap((c) => c.categories.map((k) => [`${c.code}.${k.code}`, k.name])),
  );
}
