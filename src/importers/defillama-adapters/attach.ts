// Attaching a product's addresses to an existing record (asset or series file, as a yaml
// Document so comments and unknown fields stay): an empty ledger entry gets the address and its
// origin; a ledger the record lacks is added; an address the importer wrote before follows the
// source; an editor's address that differs is kept and the disagreement reported.
import { isMap, isSeq, type Document, type YAMLMap } from 'yaml';
import type { Source } from '../../domain/common.ts';
import { nodeFor } from '../shared/data-docs.ts';
import { putSourceIfAbsent } from '../shared/record-sources.ts';
import { ADAPTER_SOURCE, type ProductLedger } from './products.ts';

const EVM = /^0x[0-9a-fA-F]{40}$/;
const sameAddress = (a: string, b: string) =>
  EVM.test(a) && EVM.test(b) ? a.toLowerCase() === b.toLowerCase() : a === b;

export function attachLedgers(
  doc: Document,
  ledgers: readonly ProductLedger[],
  source: Source,
): string[] {
  const said: string[] = [];
  const list = doc.get('ledgers', true);
  if (!isSeq(list)) return ['has no ledgers list; nothing attached'];
  let used = false;
  for (const l of ledgers) {
    const entry = list.items.find((i): i is YAMLMap => isMap(i) && i.get('ledger') === l.ledger);
    if (!entry) {
      list.items.push(
        nodeFor(doc, {
          ledger: l.ledger,
          token_standard: null,
          contract_address: l.contract_address,
          contract_address_null_reason: null,
          origin: l.origin,
        }),
      );
      said.push(`ledger ${l.ledger} added with ${l.contract_address}`);
      used = true;
      continue;
    }
    const current = entry.get('contract_address') as string | null | undefined;
    const origin = (entry.get('origin', true) as YAMLMap | undefined)?.toJSON() as
      { source?: string } | undefined;
    const ours = origin?.source === ADAPTER_SOURCE;
    if (current == null || (ours && !sameAddress(current, l.contract_address))) {
      entry.set('contract_address', l.contract_address);
      entry.set('contract_address_null_reason', null);
      entry.set('origin', nodeFor(doc, l.origin));
      said.push(
        `${l.ledger} contract ${current == null ? 'set to' : 'follows the source:'} ${l.contract_address}`,
      );
      used = true;
    } else if (!sameAddress(current, l.contract_address))
      said.push(
        `editor value kept: ${l.ledger} contract is ${current}; the adapter says ${l.contract_address}`,
      );
    else if (ours && JSON.stringify(origin) !== JSON.stringify(l.origin)) {
      entry.set('origin', nodeFor(doc, l.origin));
      used = true;
    }
  }
  if (used) putSourceIfAbsent(doc, source);
  return said;
}
