// The rule `register-row-per-token` (npm run data:check): each coin's register facts come from
// its own row of ESMA's EMT register (its issuer's LEI, the paper's address, notification and
// last update), and its authorisation date is that row's own, with the kind the rule of
// register-dates.ts gives it: never a sibling row's date.
import { ownRows, registerDateKind } from '../../dataset/register-dates.ts';
import type { StablecoinRecord } from '../../domain/market.ts';
import { coins, perRecord } from './rule.ts';

const REGISTER = 'esma-emt-register';

export const registerRowPerToken = perRecord<StablecoinRecord>(
  'register-row-per-token',
  coins,
  ({ record }, { mica }, report) => {
    const issuers = mica?.register.emt?.record.issuers;
    const paper = record.mica.white_paper;
    if (!issuers || !paper || paper.source !== REGISTER) return;
    const own = ownRows(issuers, record.issuer.lei, paper);
    if (!own) {
      report(
        ['mica', 'white_paper'],
        `is not a row of ESMA's EMT register: no row of the issuer (LEI ${record.issuer.lei ?? 'null'}) has this address, notification date and last update`,
        "copy url, notified and last_update from the token's own row of data/mica/register/emt.yaml (npm run data:import -- coins)",
      );
      return;
    }
    const a = record.mica.authorisation;
    if (a.register_source !== REGISTER) return;
    const date = own.rows[0]!.authorised ?? null;
    const kind = date && registerDateKind(date, own.issuer);
    if (a.date !== date)
      report(
        ['mica', 'authorisation', 'date'],
        `is ${a.date ?? 'null'}, but the token's own register row gives ${date ?? 'no date'}`,
        date
          ? `use "${date}" with date_kind "${kind}" (another row of the same issuer is another token)`
          : "set it to null with date_null_reason: the token's row gives no date",
      );
    else if (kind && a.date_kind !== kind)
      report(
        ['mica', 'authorisation', 'date_kind'],
        `is ${a.date_kind ?? 'missing'}, but ${date} is a ${kind} by the rule of src/dataset/register-dates.ts`,
        `use "${kind}"`,
      );
  },
);
