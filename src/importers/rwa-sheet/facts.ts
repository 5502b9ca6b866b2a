// What a sheet row states of a record beyond identifiers: its yes/no columns as the record's
// `access` facts (with the row), the risk factors those flags state (rule `aggregator-flags`:
// "CEX Listed" → exchange_listed; an allowlist to hold or transfer → allowlisted, none on a freely
// transferable permissionless token → open), the reasons of the factors they leave unknown, and
// the issuer's domicile, legal name, register number and regulator from its registry text.
// Every fact is labelled with the sheet row it came from, and only fills what no editor stated:
// a value the importer did not write stays, whatever the sheet says.
import { isMap, type Document, type YAMLMap } from 'yaml';
import type { FactOrigin } from '../../domain/common.ts';
import { valueAt } from '../shared/data-docs.ts';
import { UNSTATED, type RiskNotes } from '../defillama-adapters/classes.ts';
import { putAfter } from '../defillama-adapters/settle-unknowns.ts';
import { readRegistryText } from './registry-text.ts';
import type { SheetFlags } from './rows.ts';

export const FLAGS_RULE = 'aggregator-flags';

/** Reasons of factors the sheet's flags speak of without stating their value. */
export const SHEET_REASONS = {
  redeemable:
    "DefiLlama's RWA sheet marks the token as redeemable with its issuer; no source states how often or how fast redemptions are paid.",
  not_redeemable:
    "DefiLlama's RWA sheet marks the token as not redeemable with its issuer; no source states whether it is redeemed at maturity or on other terms.",
  not_listed:
    "DefiLlama's RWA sheet marks the token as not listed on a centralised exchange; no source states whether it trades on-chain or over the counter.",
  not_transferable:
    "DefiLlama's RWA sheet marks the token as not transferable between holders; no source states who may hold it.",
  listed_in_part: (listed: number, rows: number) =>
    `DefiLlama's RWA sheet marks ${listed} of the ${rows} tokens of this programme it lists as listed on a centralised exchange; no source states where the others trade.`,
  domicile_unclear: (countries: string[]) =>
    `DefiLlama's RWA sheet describes the issuer with more than one country (${countries.join(', ')}); no source states its domicile alone.`,
} as const;

const IMPORTER_REASONS = new Set<string>([
  ...Object.values(UNSTATED).flatMap((f) => Object.values(f)),
  SHEET_REASONS.redeemable,
  SHEET_REASONS.not_redeemable,
  SHEET_REASONS.not_listed,
  SHEET_REASONS.not_transferable,
]);
const SHEET_SAYS = "DefiLlama's RWA sheet ";
const NOT_STATED_DOMICILE = "The issuer's domicile is not stated in the sources of this record.";

type Factor = [vector: string, factor: string];
type Outcome = { value: string; rule: string } | { value: 'unknown'; reason: string } | null;

/** A programme's flags from its series' rows: each flag where all rows agree, else null (counted). */
export function mergeFlags(all: readonly SheetFlags[]): { flags: SheetFlags; listed: number } {
  const first = all[0]!;
  const flags = Object.fromEntries(
    Object.entries(first).map(([k, v]) => [
      k,
      all.every((f) => f[k as keyof SheetFlags] === v) ? v : null,
    ]),
  ) as unknown as SheetFlags;
  return { flags, listed: all.filter((f) => f.exchange_listed).length };
}

/** What the flags state of each factor they speak of; null where they say nothing. */
export function factorsFromFlags(
  flags: SheetFlags,
  publicLedgers: boolean,
  mixed?: { listed: number; rows: number },
): [Factor, Outcome][] {
  const ledger: Outcome =
    flags.allowlist_to_transfer_or_hold === true && publicLedgers
      ? { value: 'public_permissionless_allowlisted', rule: FLAGS_RULE }
      : flags.allowlist_to_transfer_or_hold === false &&
          flags.transferable === true &&
          flags.access_model === 'permissionless' &&
          publicLedgers
        ? { value: 'public_permissionless_open', rule: FLAGS_RULE }
        : flags.transferable === false
          ? { value: 'unknown', reason: SHEET_REASONS.not_transferable }
          : null;
  return [
    [
      ['liquidity', 'secondary_market'],
      flags.exchange_listed === true
        ? { value: 'exchange_listed', rule: FLAGS_RULE }
        : flags.exchange_listed === false
          ? { value: 'unknown', reason: SHEET_REASONS.not_listed }
          : mixed && mixed.listed > 0
            ? { value: 'unknown', reason: SHEET_REASONS.listed_in_part(mixed.listed, mixed.rows) }
            : null,
    ],
    [
      ['liquidity', 'redemption'],
      flags.redeemable === null
        ? null
        : {
            value: 'unknown',
            reason: flags.redeemable ? SHEET_REASONS.redeemable : SHEET_REASONS.not_redeemable,
          },
    ],
    [['smart_contract', 'ledger_exposure'], ledger],
  ];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Applies the row's access facts and the risk factors they state; true when the record changed. */
export function applyFlags(
  doc: Document,
  flags: SheetFlags,
  origin: FactOrigin,
  publicLedgers: boolean,
  mixed?: { listed: number; rows: number },
): boolean {
  let changed = false;
  const access = valueAt(doc, ['access']) as { origin?: FactOrigin } | undefined;
  const wanted = { ...flags, origin };
  if ((!access || access.origin?.source === origin.source) && !same(access, wanted)) {
    putAfter(doc, 'access', wanted, 'lifecycle_status');
    changed = true;
  }
  if (!isMap(doc.get('risk_factors', true))) return changed;
  const notes = (valueAt(doc, ['risk_factor_notes']) as RiskNotes | undefined) ?? {};
  for (const [[vector, factor], outcome] of factorsFromFlags(flags, publicLedgers, mixed)) {
    if (!outcome) continue;
    const value = valueAt(doc, ['risk_factors', vector, factor]);
    const note = notes[vector]?.[factor];
    // Only what the importers wrote: an unknown with one of their reasons, or a flag rule's value.
    const ours =
      (value === 'unknown' &&
        !!note?.reason &&
        (IMPORTER_REASONS.has(note.reason) || note.reason.startsWith(SHEET_SAYS))) ||
      note?.rule === FLAGS_RULE;
    if (!ours) continue;
    const newNote = 'rule' in outcome ? { rule: outcome.rule } : { reason: outcome.reason };
    if (value === outcome.value && same(note, newNote)) continue;
    doc.setIn(['risk_factors', vector, factor], outcome.value);
    notes[vector] = { ...notes[vector], [factor]: newNote };
    changed = true;
  }
  if (changed && Object.keys(notes).length)
    putAfter(doc, 'risk_factor_notes', notes, 'risk_factors');
  return changed;
}

/** Applies the issuer facts of the row's registry text; true when the record changed. */
export function applyRegistry(
  doc: Document,
  text: string | null,
  origin: FactOrigin,
  say: (s: string) => void,
  where: string,
): boolean {
  const issuer = doc.get('issuer', true);
  if (!isMap(issuer)) return false;
  const map = issuer as YAMLMap;
  const facts = readRegistryText(text);
  let changed = false;
  const current = map.get('jurisdiction') as string | null;
  const currentOrigin = valueAt(doc, ['issuer', 'jurisdiction_origin']) as FactOrigin | undefined;
  const oursDomicile = current == null || currentOrigin?.source === origin.source;
  if (facts.domicile && oursDomicile) {
    if (current !== facts.domicile || !same(currentOrigin, origin)) {
      map.set('jurisdiction', facts.domicile);
      map.set('jurisdiction_null_reason', null);
      putAfter(doc, 'jurisdiction_origin', origin, 'jurisdiction_null_reason', map);
      changed = true;
    }
  } else if (facts.domicile && current !== facts.domicile)
    say(
      `${where}: issuer domicile is ${current}; the sheet's registry text says ${facts.domicile} (kept)`,
    );
  else if (facts.countries.length && current == null) {
    const reason = SHEET_REASONS.domicile_unclear(facts.countries);
    const now = map.get('jurisdiction_null_reason');
    if (now !== reason && (now === NOT_STATED_DOMICILE || String(now).startsWith("DefiLlama's"))) {
      map.set('jurisdiction_null_reason', reason);
      changed = true;
    }
  }
  const registry = valueAt(doc, ['issuer', 'registry']) as { origin?: FactOrigin } | undefined;
  if (facts.legal_name || facts.register_number || facts.regulator) {
    const wanted = {
      legal_name: facts.legal_name,
      register_number: facts.register_number,
      regulator: facts.regulator,
      origin,
    };
    if ((!registry || registry.origin?.source === origin.source) && !same(registry, wanted)) {
      putAfter(doc, 'registry', wanted, 'jurisdiction_origin', map);
      changed = true;
    }
  }
  return changed;
}

/** A share class's issuer facts the sheet wrote before the class named its fund: its fund states them. */
export function clearRegistry(doc: Document, source: string, parent: string): boolean {
  const issuer = doc.get('issuer', true);
  if (!isMap(issuer)) return false;
  const map = issuer as YAMLMap;
  let changed = false;
  if (
    (valueAt(doc, ['issuer', 'jurisdiction_origin']) as FactOrigin | undefined)?.source === source
  ) {
    map.set('jurisdiction', null);
    map.set('jurisdiction_null_reason', `The fund's domicile is stated once, on ${parent}.`);
    map.delete('jurisdiction_origin');
    changed = true;
  }
  if (
    (valueAt(doc, ['issuer', 'registry', 'origin']) as FactOrigin | undefined)?.source === source
  ) {
    map.delete('registry');
    changed = true;
  }
  return changed;
}
