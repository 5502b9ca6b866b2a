// The rule `art-has-authorisation` (npm run data:check): a classification is not an authorisation.
// An asset classed `art` or `emt` is served with the authorisation the rule `mica-register`
// derives from ESMA's register of such issuers (src/dataset/mica-authorisation.ts); without that
// register in the data the authorisation would be unknown, and the classification would stand
// alone.
import { micaAuthorisation, micaRegistersOf } from '../../dataset/mica-authorisation.ts';
import { perAsset } from './rule.ts';

export const artHasAuthorisation = perAsset(
  'art-has-authorisation',
  ({ record }, { mica }, report) => {
    const status = record.mica.status;
    if (status !== 'art' && status !== 'emt') return;
    const authorisation = micaAuthorisation(record, micaRegistersOf(mica));
    if (authorisation.status === 'unknown')
      report(
        ['mica', 'status'],
        `is "${status}", but ESMA's register of its issuers (data/mica/register/${status}.yaml) is not in the data, so no authorisation can go with it`,
        `import the register (npm run data:import -- esma), or classify the token by what its documents make it (e.g. "financial_instrument" for a prospectus-based certificate)`,
      );
  },
);
