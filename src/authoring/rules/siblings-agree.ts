// The rule `siblings-agree` (npm run data:check): a record's parent is a record of the registry,
// and the share classes of a fund state its fund-level facts (regime, EU access, custodian,
// administrator, issuer domicile) as the fund does. A class that leaves one unknown takes the
// fund's (src/dataset/parents.ts); a class that states another value contradicts it.
import { siblingDisagreements } from '../../dataset/parents.ts';
import type { DataProblem } from '../problems.ts';
import { problemAt } from '../yaml-file.ts';
import type { DataCheck } from './rule.ts';

export const siblingsAgree: DataCheck = {
  name: 'siblings-agree',
  run({ assets }) {
    const problems: DataProblem[] = [];
    const byTfin = new Map(assets.map((a) => [a.record.tfin, a]));
    for (const { file, record } of assets) {
      const parent = record.parent;
      if (!parent) continue;
      const found = byTfin.get(parent.tfin);
      if (!found || parent.tfin === record.tfin || found.record.parent)
        problems.push(
          problemAt(
            file,
            ['parent', 'tfin'],
            'siblings-agree',
            !found
              ? `names ${parent.tfin}, which is not in data/assets/`
              : parent.tfin === record.tfin
                ? 'names the record itself'
                : `names ${parent.tfin}, which has a parent of its own`,
            'name the TFIN of the fund, wrapped token or master fund (a record without a parent)',
          ),
        );
    }
    for (const d of siblingDisagreements(assets.map((a) => a.record))) {
      const stated = d.values.map((v) => `${v.tfin}: ${v.value}`).join(', ');
      for (const v of d.values.filter((x) => x.tfin !== d.parent)) {
        const item = byTfin.get(v.tfin);
        if (item)
          problems.push(
            problemAt(
              item.file,
              d.fact.split('.'),
              'siblings-agree',
              `differs from what the fund ${d.parent} and its classes state (${stated})`,
              `a fund-level fact is stated once, on ${d.parent}: make it "unknown" (or null) here to take the fund's, or correct whichever value the sources contradict`,
            ),
          );
      }
    }
    return problems;
  },
};
