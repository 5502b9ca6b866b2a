// ESMA's EMT white-paper register as imported (data/mica/register/emt.yaml): the white paper of a
// coin, found by the issuer's LEI and the paper's URL (and ESMA's comment, where one issuer files
// several papers at one URL), with the facts it gives about the issuer and the token.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { emtIssuer } from '../../domain/mica-register.ts';
import { importProvenance } from '../../domain/common.ts';
import { ImportError } from '../shared/errors.ts';
import { paperMatches, type PaperMapping } from '../shared/stablecoin-universe.ts';

export const REGISTER_FILE = 'data/mica/register/emt.yaml';

const emtFile = z.object({
  register: z.literal('emt'),
  provenance: importProvenance,
  issuers: z.array(emtIssuer),
});
export type EmtFile = z.infer<typeof emtFile>;
export type EmtIssuer = EmtFile['issuers'][number];
export type EmtPaper = EmtIssuer['tokens'][number];

export function readRegister(root: string): EmtFile {
  let raw: unknown;
  try {
    raw = parse(readFileSync(path.join(root, REGISTER_FILE), 'utf8'));
  } catch (error) {
    throw new ImportError(
      { input: REGISTER_FILE },
      `cannot be read (${(error as Error).message.split('\n')[0]})`,
      "ESMA's EMT register as `npm run data:import -- esma --file …emtwp.csv` writes it",
    );
  }
  const parsed = emtFile.safeParse(raw);
  if (!parsed.success)
    throw new ImportError(
      { input: `${REGISTER_FILE}: ${parsed.error.issues[0]!.path.join('.')}` },
      parsed.error.issues[0]!.message,
      'the file as the esma importer writes it (re-run that import)',
    );
  return parsed.data;
}

export interface FoundPaper {
  issuer: EmtIssuer;
  paper: EmtPaper;
}

/**
 * The register's white paper for a mapping: the issuer's papers at that URL (with that comment,
 * when given); of several versions, the latest notified.
 */
export function findPaper(register: EmtFile, mapping: PaperMapping): FoundPaper | null {
  const issuer = register.issuers.find((i) => i.lei === mapping.lei);
  if (!issuer) return null;
  const papers = issuer.tokens
    .filter((t) => paperMatches(mapping, t.url, t.comment))
    .sort((a, b) => (b.notified ?? '').localeCompare(a.notified ?? ''));
  return papers[0] ? { issuer, paper: papers[0] } : null;
}
