// What the sources say about one coin, before it is written: identity, status, deployments (from
// DefiLlama's list) and the white paper, DTIs and issuer (from ESMA's register). Every fact carries
// its origin; texts are written for the people who read the record.
import type { FactOrigin } from '../../domain/common.ts';
import type { CoinStatus, StablecoinDeployment, StablecoinRecord } from '../../domain/market.ts';
import { stablecoinDeployment } from '../../domain/market.ts';
import type { ListedCoin, ListedContract } from './defillama-files.ts';
import { bridgedFromChain, type LedgerLookup } from './ledgers.ts';
import type { FoundPaper } from './register.ts';
import type { PaperMapping } from '../shared/stablecoin-universe.ts';

export const LIST_SOURCE = 'defillama-stablecoins-list';
export const CONTRACTS_SOURCE = 'defillama-stablecoin-contracts';
export const REGISTER_SOURCE = 'esma-emt-register';

export interface Selected {
  /** The record's id (its file name). */
  id: string;
  symbol: string;
  name: string;
  peg: string;
  listed: ListedCoin | null;
  mapping: PaperMapping | null;
  paper: FoundPaper | null;
  /** Why the coin is covered, for the report. */
  why: string[];
}

const originOf = (source: string, o: ListedCoin['origin']): FactOrigin => ({
  source,
  repository: o.repository,
  path: o.path,
  ...(o.line === undefined ? {} : { line: o.line }),
  commit: o.commit,
});

/** The coin's status as DefiLlama's list gives it, or as the register implies it. */
export function statusOf(coin: Selected): CoinStatus {
  const listed = coin.listed;
  if (listed?.dead_from)
    return {
      value: 'inactive',
      since: listed.dead_from,
      basis: `DefiLlama's stablecoin list marks the coin as dead from ${listed.dead_from}; it does not state why.`,
      source: LIST_SOURCE,
      origin: originOf(LIST_SOURCE, listed.origin),
    };
  if (listed?.delisted || listed?.deprecated) {
    const flag = listed.delisted ? 'delisted' : 'deprecated';
    return {
      value: 'inactive',
      since: null,
      since_null_reason: `DefiLlama's stablecoin list marks the coin as ${flag} without a date.`,
      basis: `DefiLlama's stablecoin list marks the coin as ${flag}; it does not state why.`,
      source: LIST_SOURCE,
      origin: originOf(LIST_SOURCE, listed.origin),
    };
  }
  if (listed)
    return {
      value: 'live',
      since: null,
      basis:
        "Listed as live in DefiLlama's stablecoin list (no dead, delisted or deprecated mark).",
      source: LIST_SOURCE,
      origin: originOf(LIST_SOURCE, listed.origin),
    };
  return {
    value: 'live',
    since: null,
    basis: `ESMA's register lists its e-money-token white paper${coin.paper?.paper.notified ? `, notified ${coin.paper.paper.notified}` : ''}, and no withdrawal.`,
    source: REGISTER_SOURCE,
  };
}

export interface DeploymentResult {
  deployments: StablecoinDeployment[];
  /** Chains whose key has no ledger code: `chain (kind)` per row. */
  unmapped: string[];
  /** Rows whose address is not an address (DefiLlama's configuration holds code there). */
  unreadable: string[];
}

/** The rows of contracts.csv that are this coin's: by CoinGecko id, else by symbol and name. */
export function contractsOf(
  listed: ListedCoin,
  contracts: readonly ListedContract[],
): ListedContract[] {
  return contracts.filter((c) =>
    listed.gecko_id
      ? c.gecko_id === listed.gecko_id
      : c.gecko_id === null && c.symbol === listed.symbol && c.name === listed.name,
  );
}

/** Token contracts only: `issued` and `bridgedFrom…` rows (wallets, reserves, escrow are not deployments). */
export function deploymentsOf(
  rows: readonly ListedContract[],
  ledgers: LedgerLookup,
): DeploymentResult {
  const out = new Map<string, StablecoinDeployment>();
  const unmapped: string[] = [];
  const unreadable: string[] = [];
  for (const row of rows) {
    const from = row.kind === 'issued' ? null : bridgedFromChain(row.kind);
    if (row.kind !== 'issued' && from === null) continue;
    const ledger = ledgers.codeFor(row.chain);
    if (!ledger) {
      unmapped.push(`${row.chain} (${row.kind}, row ${row.row})`);
      continue;
    }
    const bridgedFrom = from === null ? null : (ledgers.codeFor(from) ?? null);
    const deployment: StablecoinDeployment = {
      ledger,
      kind: from === null ? 'issued' : 'bridged',
      ...(from === null ? {} : { bridged_from: bridgedFrom }),
      contract_address: row.address,
      origin: originOf(CONTRACTS_SOURCE, row.origin),
    };
    if (!stablecoinDeployment.safeParse(deployment).success) {
      unreadable.push(`${row.chain} row ${row.row}: "${row.address}"`);
      continue;
    }
    const key = `${ledger}/${deployment.kind}/${row.address.toLowerCase()}`;
    if (!out.has(key)) out.set(key, deployment);
  }
  return { deployments: [...out.values()], unmapped, unreadable };
}

export interface PaperFacts {
  white_paper: NonNullable<StablecoinRecord['mica']['white_paper']>;
  dti: string | null;
  dti_null_reason: string | null;
  ledger_dtis: NonNullable<StablecoinRecord['ledger_dtis']>;
  lei: string;
  origin: FactOrigin;
}

/** The white paper's facts: its DTIs (the group's, else the only one), the issuer's LEI. */
export function paperFacts(found: FoundPaper, ledgers: LedgerLookup): PaperFacts {
  const { issuer, paper } = found;
  const origin: FactOrigin = { source: REGISTER_SOURCE, path: 'EMTWP.csv' };
  const codes = [...new Map(paper.dti.map((d) => [d.code, d])).values()];
  const dti = paper.dti_ffg ?? (codes.length === 1 ? codes[0]!.code : null);
  return {
    white_paper: {
      url: paper.url && /^https?:/.test(paper.url) ? paper.url : null,
      ...(paper.url && /^https?:/.test(paper.url)
        ? {}
        : { url_null_reason: "ESMA's register gives no address for the white paper." }),
      notified: paper.notified,
      last_update: paper.last_update,
      source: REGISTER_SOURCE,
      origin,
    },
    dti,
    dti_null_reason:
      dti !== null
        ? null
        : codes.length === 0
          ? "ESMA's register lists no DTI for this token's white paper."
          : `ESMA's register lists ${codes.length} per-ledger DTIs for this token and no DTI of its functionally fungible group.`,
    ledger_dtis: codes
      .filter((d) => d.code !== dti || codes.length > 1)
      .map((d) => ({
        dti: d.code,
        ledger: d.ledger ? (ledgers.codeForName(d.ledger) ?? null) : null,
        ledger_name: d.ledger,
      })),
    lei: issuer.lei,
    origin,
  };
}
