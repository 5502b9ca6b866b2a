// The rule `mica-status-consistent` (npm run data:check).

import { perAsset } from './rule.ts';

// Commodity-backed tokens are not securities by nature: MiCA may treat them as ARTs.
const SECURITY_CLASSES = ['DEBT', 'FUND', 'EQTY', 'STRU', 'CRED'];
export const micaConsistentWithClass = perAsset(
  'mica-status-consistent',
  ({ record }, _ctx, report) => {
    const assetClass = record.tfic.split('.')[0]!;
    const status = record.mica.status;
    if (assetClass === 'DEPO' && status !== 'deposit' && status !== 'not_offered_in_eu') {
      report(
        ['mica', 'status'],
        `is "${status}" for a tokenized deposit`,
        'tokenized deposits are deposits, outside MiCA (Art. 2(4)(b)): use "deposit"',
      );
    }
    // MiCA excludes deposits under Art. 2(4)(b); (c) is about funds.
    if (status === 'deposit' && !record.mica.rationale.includes('2(4)(b)'))
      report(
        ['mica', 'rationale'],
        'does not cite MiCA Art. 2(4)(b), the exclusion of deposits',
        'cite "Art. 2(4)(b)" (deposits); Art. 2(4)(c) is about funds',
      );
    if (SECURITY_CLASSES.includes(assetClass) && ['emt', 'art', 'deposit'].includes(status)) {
      report(
        ['mica', 'status'],
        `is "${status}" for a ${assetClass} instrument`,
        'a tokenized security or fund unit is a MiFID II financial instrument: use "financial_instrument" (or "other_crypto_asset" with a rationale for a non-security claim)',
      );
    }
  },
);
