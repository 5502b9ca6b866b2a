// data/codes/stablecoin-universe.yaml: which coins the registry covers beyond every live EUR coin,
// and which token each ESMA white paper is for. Read and checked here (its errors name the file
// and the entry); shared, since the coin and coin-figures importers both read it.
import { z } from 'zod';
import { readYamlTable } from './yaml-table.ts';

const lei = z.string().regex(/^[0-9A-Z]{20}$/);
const defillamaId = z.string().regex(/^[0-9]+$/);

const paper = z
  .strictObject({
    coin: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
    lei,
    url: z.string().min(1),
    /** ESMA's comment on the row; a list where the issuer filed versions of one paper. */
    comment: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    defillama: defillamaId.optional(),
    symbol: z.string().min(2).optional(),
    name: z.string().min(1).optional(),
    peg: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
  })
  .refine((p) => p.defillama !== undefined || (p.symbol && p.name && p.peg), {
    error: 'needs `defillama`, or `symbol`, `name` and `peg` for a token DefiLlama does not list',
  });

export const stablecoinUniverse = z.strictObject({
  version: z.string().min(1),
  largest_usd: z.array(z.strictObject({ defillama: defillamaId, symbol: z.string().min(1) })),
  white_papers: z.array(paper),
  not_named: z.array(
    z.strictObject({ lei, url: z.string().min(1).optional(), reason: z.string().min(1) }),
  ),
  report_pages: z
    .array(z.strictObject({ publisher: z.string().min(1), url: z.url({ protocol: /^https$/ }) }))
    .default([]),
});
export type StablecoinUniverse = z.infer<typeof stablecoinUniverse>;
export type PaperMapping = StablecoinUniverse['white_papers'][number];

/** Whether a register row (its URL and comment) is the mapping's white paper. */
export function paperMatches(m: PaperMapping, url: string | null, comment: string | null): boolean {
  if (m.url !== url) return false;
  if (m.comment === undefined) return true;
  return [m.comment].flat().includes(comment ?? '');
}

export const UNIVERSE_FILE = 'data/codes/stablecoin-universe.yaml';

export function readUniverse(root: string): StablecoinUniverse {
  return readYamlTable(
    root,
    UNIVERSE_FILE,
    stablecoinUniverse,
    'the coin selection table (see CONTRIBUTING.md, "Stablecoins")',
  );
}
