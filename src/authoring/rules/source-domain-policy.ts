// The rule `source-domain-policy` (npm run data:check).
import type { DataProblem } from '../problems.ts';
import { allSourceLists, onDomain } from '../source-lists.ts';
import { problemAt } from '../yaml-file.ts';
import type { DataCheck } from './rule.ts';

const REGULATOR_KINDS = new Set(['regulator_register', 'regulator_publication', 'regulation']);

export const sourceDomainPolicy: DataCheck = {
  name: 'source-domain-policy',
  run(ctx) {
    const policy = ctx.codes.sourcePolicy;
    const refused = policy.refused_domains.map((r) => r.domain);
    const problems: DataProblem[] = [];
    for (const list of allSourceLists(ctx)) {
      list.sources.forEach((s, i) => {
        if (typeof s?.url !== 'string') return;
        const at = [...list.at, i, 'url'];
        const report = (message: string, fix: string) =>
          problems.push(problemAt(list.file, at, 'source-domain-policy', message, fix));
        const bad = onDomain(s.url, refused);
        if (bad) {
          const reason = policy.refused_domains.find((r) => r.domain === bad)!.reason;
          report(
            `is on ${bad}, which is never a source (${reason})`,
            'cite the original publisher: the issuer, regulator, CSD, ledger explorer or the aggregator itself',
          );
        } else if (REGULATOR_KINDS.has(s.kind) && !onDomain(s.url, policy.regulator_domains)) {
          report(
            `is a ${s.kind} source but not on a regulator's own site`,
            "cite the regulator's own page or file (or, for a regulator missing from data/codes/source-policy.yaml regulator_domains, add its domain there)",
          );
        } else if (s.kind === 'data_aggregator' && !onDomain(s.url, policy.aggregator_domains)) {
          report(
            "is a data_aggregator source but not on an aggregator's own site",
            "cite the aggregator's own page (or add its domain to aggregator_domains in data/codes/source-policy.yaml)",
          );
        }
      });
    }
    return problems;
  },
};
