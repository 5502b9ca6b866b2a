// data/assets/universe/defillama-adapters.yaml: which adapter products are series of a programme,
// which are existing records, which take another TFIC than their asset class gives, and which the
// asset registry does not hold. Checked here; its errors name the file and the entry.
import { z } from 'zod';
import { TFIN_PATTERN } from '../../domain/identifiers.ts';
import { readYamlTable } from '../shared/yaml-table.ts';

export const UNIVERSE_FILE = 'data/assets/universe/defillama-adapters.yaml';

const tfin = z.string().regex(TFIN_PATTERN);
const tfic = z.string().regex(/^[A-Z]{4}\.[A-Z]{4}$/);
const text = z.string().min(1);

const programme = z.strictObject({
  issuer: text,
  tfin,
  /** For a programme the importer creates: its name, issuer and TFIC. */
  name: text.optional(),
  issuer_name: text.optional(),
  tfic: tfic.optional(),
  /** A series' name: `{ticker}` and `{underlying}` are replaced. */
  series_name: text,
  /** A pattern whose group 1 is the underlying's name in the product name. */
  underlying_from: text.optional(),
  /** A pattern whose group 1 is the underlying's ticker in the token's ticker. */
  underlying_ticker_from: text.optional(),
});

export const adapterUniverse = z.strictObject({
  version: text,
  programmes: z.array(programme),
  records: z.array(
    z.strictObject({ issuer: text, tickers: z.array(text).min(1), tfin: tfin.optional() }),
  ),
  classes: z.array(z.strictObject({ issuer: text, ticker: text, tfic })),
  not_assets: z.array(
    z.strictObject({ issuer: text, tickers: z.array(text).min(1), reason: text }),
  ),
});
export type AdapterUniverse = z.infer<typeof adapterUniverse>;
export type ProgrammeEntry = AdapterUniverse['programmes'][number];

export function readAdapterUniverse(root: string): AdapterUniverse {
  return readYamlTable(
    root,
    UNIVERSE_FILE,
    adapterUniverse,
    'the adapter product table of the data tree',
  );
}
