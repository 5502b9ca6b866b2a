// The rule `venue-rules` (npm run data:check).
import type { VenuesFile } from '../../domain/market.ts';
import { coins, oneOf, perRecord, venuesFile } from './rule.ts';

export const venueRules = perRecord<VenuesFile>(
  'venue-rules',
  venuesFile,
  ({ record }, ctx, report) => {
    const known = new Set(coins(ctx).map((c) => c.record.id));
    const seen = new Set<string>();
    record.venues.forEach((v, i) => {
      const at = (...rest: (string | number)[]) => ['venues', i, ...rest];
      if (seen.has(v.id))
        report(at('id'), `repeats the venue id "${v.id}"`, 'give every venue its own id');
      seen.add(v.id);
      const ids = new Set(v.sources.map((s) => s.id));
      if (v.mica_casp.source && !ids.has(v.mica_casp.source))
        report(
          at('mica_casp', 'source'),
          `names "${v.mica_casp.source}", which is not a source of this venue`,
          `use one of: ${[...ids].join(', ')}`,
        );
      v.stablecoins_listed.forEach((c, j) => {
        if (!known.has(c))
          report(
            at('stablecoins_listed', j),
            `"${c}" is not a file in data/stablecoins/`,
            oneOf(c, [...known]),
          );
      });
      if (
        v.mica_casp.authorised === true &&
        (v.mica_casp.member_state === null || v.mica_casp.authority === null)
      ) {
        report(
          at('mica_casp'),
          'is authorised but names no member state or authority',
          'copy the home member state and the authority from the register entry',
        );
      }
    });
  },
);
