// The assets whose amount has a history, as the landing page's history table reads them: from
// the emitter's files in dist/client (the histories and the list summaries,
// src/authoring/prebuilt-bodies.ts, written before Astro renders the page), so building the page
// parses only those assets' small rows, never every profile.
import path from 'node:path';
import type { AssetSummary } from '../domain/api.ts';
import type { HistoryPoint } from '../domain/common.ts';
import type { DatasetCore } from './artifact.ts';
import { SUMMARIES_FILE } from './built-files.ts';
import { HISTORIES_FILE, openHistories } from './history-file.ts';
import { openSummaries } from './summary-file.ts';

export interface AssetAmountHistory {
  tfin: string;
  name: string;
  /** The current amount (as in the list summary) with its history. */
  amount: NonNullable<AssetSummary['amount']> & { history: HistoryPoint[] };
}

/** In the registry's order (TFIN), the assets with an amount history; `dir` is dist/client. */
export function* amountHistories(
  dir: string,
  core: Pick<DatasetCore, 'registry'>,
): Generator<AssetAmountHistory> {
  const histories = openHistories(path.join(dir, ...HISTORIES_FILE.split('/')));
  if (histories.size === 0) return;
  const summaries = openSummaries(path.join(dir, ...SUMMARIES_FILE.split('/')));
  const rows = core.registry.rows;
  for (let i = 0; i < rows.length; i++) {
    const history = histories.of(rows[i]!.tfin);
    if (!history.length) continue;
    const summary = JSON.parse(summaries.read(i).toString('utf8')) as AssetSummary;
    if (summary.tfin !== rows[i]!.tfin || !summary.amount)
      throw new Error(`the emitter's summaries do not match the dataset at ${rows[i]!.tfin}`);
    yield { tfin: summary.tfin, name: summary.name, amount: { ...summary.amount, history } };
  }
}
