// Records these importers wrote before a risk factor could be `unknown` said that "a fact no
// source states takes the least favourable value" and served that value as a fact. On re-import,
// each factor of such a record that still holds the value the importer wrote becomes `unknown`
// with its reason, each credit factor that still holds its class rule's value names the rule, and
// the basis says so. An editor's value (anything else) stays; a second run changes nothing.
import { isMap, type Document, type YAMLMap } from 'yaml';
import { nodeFor, valueAt } from '../shared/data-docs.ts';
import { FORMER_WORST_CASE, UNSTATED, ruleFor, type RiskNotes } from './classes.ts';
import { ADAPTER_BASIS, classFactsSentence } from './records.ts';

const FORMER_SENTENCE =
  /Class facts follow rule ([a-z-]+); a fact no source states takes the least favourable value of its risk factor\./;

/** How the adapter basis read before it said what the source is rather than how it was used. */
const FORMER_ADAPTER_BASIS =
  "The contract addresses come from DefiLlama's adapter configuration alone: an aggregator's reading list, not a ledger read or an issuer statement, so the record is unverified.";

/** The former adapter basis in a record or series reworded; true when it changed. */
export function rewordAdapterBasis(doc: Document): boolean {
  const basis = valueAt(doc, ['validation', 'basis']);
  if (typeof basis !== 'string' || !basis.includes(FORMER_ADAPTER_BASIS)) return false;
  doc.setIn(['validation', 'basis'], basis.replace(FORMER_ADAPTER_BASIS, ADAPTER_BASIS));
  return true;
}

/** `key` set to `value` in `map` (the document's root by default), placed after `after` when new. */
export function putAfter(
  doc: Document,
  key: string,
  value: unknown,
  after: string,
  map = doc.contents as YAMLMap,
) {
  if (map.has(key)) {
    map.set(key, nodeFor(doc, value));
    return;
  }
  const at = map.items.findIndex((p) => (p.key as { value?: unknown })?.value === after);
  map.items.splice(at < 0 ? map.items.length : at + 1, 0, doc.createPair(key, nodeFor(doc, value)));
}

/** True when the record held worst-case values for unstated facts and now holds `unknown`. */
export function settleWorstCases(doc: Document): boolean {
  const basis = valueAt(doc, ['validation', 'basis']);
  const former = typeof basis === 'string' ? FORMER_SENTENCE.exec(basis) : null;
  if (!former || !isMap(doc.get('risk_factors', true))) return false;
  const ruleName = former[1]!;
  const notes = ((valueAt(doc, ['risk_factor_notes']) as RiskNotes | undefined) ?? {}) as RiskNotes;
  const note = (vector: string, factor: string, value: { reason: string } | { rule: string }) => {
    notes[vector] = { ...notes[vector], [factor]: value };
  };
  for (const [vector, factors] of Object.entries(FORMER_WORST_CASE))
    for (const [factor, worst] of Object.entries(factors))
      if (valueAt(doc, ['risk_factors', vector, factor]) === worst) {
        doc.setIn(['risk_factors', vector, factor], 'unknown');
        note(vector, factor, { reason: UNSTATED[vector]![factor]! });
      }
  const rule = ruleFor(String(doc.get('tfic')));
  if (rule.name === ruleName)
    for (const [factor, value] of Object.entries(rule.credit))
      if (valueAt(doc, ['risk_factors', 'credit', factor]) === value && !notes['credit']?.[factor])
        note('credit', factor, { rule: rule.name });
  const vectors = ['credit', ...Object.keys(FORMER_WORST_CASE)];
  const ordered = Object.fromEntries(vectors.filter((v) => notes[v]).map((v) => [v, notes[v]]));
  putAfter(doc, 'risk_factor_notes', ordered, 'risk_factors');
  doc.setIn(
    ['validation', 'basis'],
    basis!.toString().replace(FORMER_SENTENCE, classFactsSentence(ruleName)),
  );
  return true;
}
