// The rule `stablecoin-authorisation` (npm run data:check).
import type { StablecoinRecord } from '../../domain/market.ts';
import { coins, perRecord } from './rule.ts';

export const stablecoinAuthorisation = perRecord<StablecoinRecord>(
  'stablecoin-authorisation',
  coins,
  ({ record }, _ctx, report) => {
    const a = record.mica.authorisation;
    if (a.status === 'authorised') {
      for (const field of [
        'institution_type',
        'home_member_state',
        'competent_authority',
      ] as const) {
        if (a[field] === null && !(field === 'institution_type' && a.institution_type_null_reason))
          report(
            ['mica', 'authorisation', field],
            'is null for an authorised issuer',
            `give the ${field.replaceAll('_', ' ')} from the register entry`,
          );
      }
    } else if (a.institution_type !== null) {
      report(
        ['mica', 'authorisation', 'institution_type'],
        `is set but the status is "${a.status}"`,
        'set it to null: only an authorised issuer has an institution type',
      );
    }
  },
);
