// Writing a coin's facts into its record (a yaml Document, so comments and unknown fields stay):
// a new record is made whole from the facts, with every unknown field null and its reason; an
// existing record gets the importer's facts where it has none or where the importer wrote the
// value before (its `origin` names an importer source). A value an editor set (no importer origin)
// that differs from the source is kept, and the disagreement reported.
import { isMap, isSeq, YAMLMap, type Document } from 'yaml';
import type { FactOrigin, Source } from '../../domain/common.ts';
import type { CoinStatus, StablecoinDeployment } from '../../domain/market.ts';
import { nodeFor, valueAt } from '../shared/data-docs.ts';
import { putSourceIfAbsent } from '../shared/record-sources.ts';
import {
  CONTRACTS_SOURCE,
  LIST_SOURCE,
  REGISTER_SOURCE,
  type PaperFacts,
  type Selected,
} from './facts.ts';

const IMPORTER_SOURCES = new Set([LIST_SOURCE, CONTRACTS_SOURCE, REGISTER_SOURCE]);

export interface CoinFacts {
  coin: Selected;
  status: CoinStatus;
  deployments: StablecoinDeployment[];
  /** Why `ledgers` is empty, when no deployment has a ledger code. */
  ledgersReason: string | null;
  paper: PaperFacts | null;
  sources: Source[];
  backing: string;
  website: string | null;
  today: string;
}

const importerOrigin = (origin: unknown) =>
  typeof origin === 'object' &&
  origin !== null &&
  IMPORTER_SOURCES.has(String((origin as FactOrigin).source));

/** Sets `key` right after `after` (or at the end), keeping the rest of the map's order. */
function setAfter(map: YAMLMap, key: string, value: unknown, after: string, doc: Document) {
  if (map.has(key)) {
    map.set(key, nodeFor(doc, value));
    return;
  }
  const pair = doc.createPair(key, nodeFor(doc, value));
  const at = map.items.findIndex((p) => (p.key as { value?: unknown })?.value === after);
  if (at < 0) map.items.push(pair);
  else map.items.splice(at + 1, 0, pair);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Applies the facts to an existing record; lines for the report. */
export function updateRecord(doc: Document, facts: CoinFacts): string[] {
  const said: string[] = [];
  const root = doc.contents as YAMLMap;
  const kept = (field: string, editor: unknown, source: unknown) =>
    said.push(
      `editor value kept: ${field} is ${JSON.stringify(editor)}; the source says ${JSON.stringify(source)}`,
    );

  // Status: the importer's unless an editor stated it from another source.
  const status = valueAt(doc, ['status']) as CoinStatus | undefined;
  if (!status || importerOrigin(status.origin) || status.source === facts.status.source) {
    if (!same(status, facts.status)) setAfter(root, 'status', facts.status, 'name', doc);
  } else if (status.value !== facts.status.value)
    kept('status.value', status.value, facts.status.value);

  const listed = facts.coin.listed;
  const ids = {
    defillama: listed?.id ?? null,
    coingecko: listed?.gecko_id ?? null,
  };
  if (!same(valueAt(doc, ['aggregator_ids']), ids))
    setAfter(root, 'aggregator_ids', ids, 'status', doc);

  if (facts.paper) applyPaper(doc, root, facts.paper, kept);
  said.push(...applyDeployments(doc, root, facts));
  for (const s of facts.sources) putSourceIfAbsent(doc, s);
  return said;
}

function applyPaper(
  doc: Document,
  root: YAMLMap,
  p: PaperFacts,
  kept: (field: string, editor: unknown, source: unknown) => void,
) {
  const dti = valueAt(doc, ['dti']) as string | null | undefined;
  const dtiOrigin = valueAt(doc, ['dti_origin']);
  if (dti === p.dti || dti == null || importerOrigin(dtiOrigin)) {
    if (p.dti !== null) {
      setAfter(root, 'dti', p.dti, 'aggregator_ids', doc);
      root.delete('dti_null_reason');
      setAfter(root, 'dti_origin', p.origin, 'dti', doc);
    } else if (dti == null) {
      setAfter(root, 'dti', null, 'aggregator_ids', doc);
      setAfter(root, 'dti_null_reason', p.dti_null_reason, 'dti', doc);
      root.delete('dti_origin');
    }
  } else if (p.dti !== null) kept('dti', dti, p.dti);
  if (p.ledger_dtis.length) setAfter(root, 'ledger_dtis', p.ledger_dtis, 'dti_origin', doc);

  const issuer = doc.get('issuer', true);
  if (isMap(issuer)) {
    const lei = issuer.get('lei');
    const leiOrigin = valueAt(doc, ['issuer', 'lei_origin']);
    if (lei === p.lei || lei == null || importerOrigin(leiOrigin)) {
      issuer.set('lei', p.lei);
      issuer.delete('lei_null_reason');
      setAfter(issuer, 'lei_origin', p.origin, 'lei', doc);
    } else kept('issuer.lei', lei, p.lei);
  }
  const mica = doc.get('mica', true);
  if (isMap(mica)) {
    const current = valueAt(doc, ['mica', 'white_paper']) as { source?: string } | null | undefined;
    if (!current || current.source === REGISTER_SOURCE)
      setAfter(mica, 'white_paper', p.white_paper, 'classification_rationale', doc);
  }
}

const keyOf = (d: { ledger: unknown; kind: unknown }) => `${String(d.ledger)}/${String(d.kind)}`;

/**
 * Deployments: the importer's entries are replaced by the source's; an editor's entry for the same
 * ledger and kind stays (reported when its address differs). Nothing is removed: an importer entry
 * the source no longer lists is reported.
 */
function applyDeployments(doc: Document, root: YAMLMap, facts: CoinFacts): string[] {
  const said: string[] = [];
  const existing = (valueAt(doc, ['deployments']) as StablecoinDeployment[] | undefined) ?? [];
  const editors = existing.filter((d) => !importerOrigin(d.origin));
  const editorKeys = new Map(editors.map((d) => [keyOf(d), d]));
  const fresh = facts.deployments.filter((d) => {
    const editor = editorKeys.get(keyOf(d));
    if (!editor) return true;
    if (String(editor.contract_address).toLowerCase() !== String(d.contract_address).toLowerCase())
      said.push(
        `editor value kept: deployment ${keyOf(d)} is ${editor.contract_address}; the source says ${d.contract_address}`,
      );
    return false;
  });
  const freshKeys = new Set(
    fresh.map((d) => `${keyOf(d)}/${String(d.contract_address).toLowerCase()}`),
  );
  const gone = existing.filter(
    (d) =>
      importerOrigin(d.origin) &&
      !freshKeys.has(`${keyOf(d)}/${String(d.contract_address).toLowerCase()}`),
  );
  for (const d of gone)
    said.push(
      `deployment ${keyOf(d)} ${d.contract_address} is no longer in the source; kept (remove it by hand if it is gone)`,
    );
  const next = [...editors, ...gone, ...fresh.map((d) => keepSupply(d, existing))];
  if (next.length && !same(existing, next)) setAfter(root, 'deployments', next, 'ledgers', doc);

  // The coin's ledgers: those it had, then every ledger it is deployed on.
  const ledgers = (valueAt(doc, ['ledgers']) as string[] | undefined) ?? [];
  const all = [...new Set([...ledgers, ...next.map((d) => d.ledger)])];
  if (!same(ledgers, all)) {
    const node = nodeFor(doc, all);
    if (isSeq(node)) node.flow = true;
    root.set('ledgers', node);
  }
  if (all.length) root.delete('ledgers_null_reason');
  else if (facts.ledgersReason)
    setAfter(root, 'ledgers_null_reason', facts.ledgersReason, 'ledgers', doc);
  return said;
}

/** A supply read from the ledger (the on-ledger importer's) stays with its deployment. */
function keepSupply(d: StablecoinDeployment, existing: readonly StablecoinDeployment[]) {
  const before = existing.find(
    (e) =>
      keyOf(e) === keyOf(d) &&
      String(e.contract_address).toLowerCase() === String(d.contract_address).toLowerCase(),
  );
  return before?.supply ? { ...d, supply: before.supply } : d;
}
