// The crypto-asset services of Art. 3(1)(16) MiCA, read from ESMA's free-text service lists.
// Competent authorities write them differently (letters off by one, "I" or newlines between
// items, missing letters), so each item is recognised by its wording, not its letter; an item
// that names no service stops the import.
import type { ServiceCode } from '../../domain/mica-register.ts';
import type { Cells } from './fields.ts';

const SERVICES: [code: ServiceCode, wording: RegExp][] = [
  ['a', /custody/i],
  ['b', /operation of a trading platform/i],
  ['c', /exchange (?:of crypto[- ]assets for funds|between crypto[- ]assets and fiat)/i],
  [
    'd',
    /exchange (?:of|for) crypto[- ]assets for other|exchange between crypto[- ]assets(?! and fiat)/i,
  ],
  ['e', /execution of (?:client )?orders/i],
  ['f', /placing of crypto/i],
  ['g', /reception and transmission/i],
  ['h', /advice on crypto/i],
  ['i', /portfolio management/i],
  ['j', /transfer services/i],
];

export const SERVICE_CODES = SERVICES.map(([code]) => code);

/** Items are separated by "|", newlines, ";", "/" or a capital "I" between spaces. */
const ITEM_SEPARATOR = /\s*(?:\||\n|;|\/|\s I\s)\s*/;

export function serviceCodes(cells: Cells, column: string): ServiceCode[] {
  const found = new Set<ServiceCode>();
  for (const item of cells.list(column, ITEM_SEPARATOR)) {
    const codes = SERVICES.filter(([, wording]) => wording.test(item)).map(([code]) => code);
    if (!codes.length && /[a-z]{3}/i.test(item))
      cells.fail(
        column,
        `"${item}" names no crypto-asset service`,
        'services as MiCA Art. 3(1)(16) words them, e.g. "a. providing custody and administration of crypto-assets on behalf of clients"',
      );
    codes.forEach((c) => found.add(c));
  }
  return [...found].sort();
}
