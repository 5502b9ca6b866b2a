// npm test [-- GATE...]: every gate (scripts/gates.ts), all of them even when one fails, then the
// summary; exits non-zero when any gate failed or could not run.
import { GATES, runGates, summary } from './gates.ts';

const only = process.argv.slice(2);
const unknown = only.filter((name) => !GATES.some((g) => g.name === name));
if (unknown.length) {
  console.error(
    `unknown gate ${unknown.join(', ')}; the gates are ${GATES.map((g) => g.name).join(', ')}`,
  );
  process.exit(2);
}
const results = runGates(only.length ? GATES.filter((g) => only.includes(g.name)) : GATES);
console.log(`\n${summary(results)}`);
process.exit(results.every((r) => r.outcome === 'passed') ? 0 : 1);
