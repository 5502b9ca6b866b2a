// The MiCA authorisation of a registry asset, derived at build by the rule `mica-register` from
// its classification and ESMA's interim registers (data/mica/register/): a classification says
// what MiCA would make of a token, an authorisation whether anyone is authorised to offer it.
// Stated on the methodology page; recomputed by test/data/derived.test.ts.
import type { AssetRecord } from '../domain/asset.ts';
import type { ArtRegisterFile, EmtIssuer, EmtRegisterFile } from '../domain/mica-register.ts';
import type { MicaDateKind } from '../domain/market.ts';
import { registerDateKind } from './register-dates.ts';

export const MICA_AUTHORISATION_RULE = 'mica-register';

export type AssetAuthorisationStatus =
  'authorised' | 'not_authorised' | 'not_applicable' | 'unknown';

export interface AssetMicaAuthorisation {
  status: AssetAuthorisationStatus;
  /** What the status rests on, in words users read. */
  basis: string;
  /** The rule that derived it. */
  rule: typeof MICA_AUTHORISATION_RULE;
  /** The register file it was read from (`data/mica/register/<name>.yaml`); null when none applies. */
  register: 'art' | 'emt' | null;
  /** The issuer's date in that register (see `date_kind`). */
  date: string | null;
  /** What `date` is: an ART issuer's MiCA authorisation, or an EMT row's date by the rule of register-dates.ts. */
  date_kind: MicaDateKind | null;
}

/** The registers the rule reads; null where the file is not in the data. */
export interface MicaRegisters {
  art: Pick<ArtRegisterFile, 'issuers' | 'provenance'> | null;
  emt: Pick<EmtRegisterFile, 'issuers' | 'provenance'> | null;
}

const OUTSIDE: Record<string, string> = {
  financial_instrument:
    'A financial instrument is outside MiCA (Art. 2(4)(a)): no MiCA authorisation applies; securities and fund law do.',
  deposit:
    'A deposit is outside MiCA (Art. 2(4)(b)): no MiCA authorisation applies; banking law does.',
  other_crypto_asset:
    'MiCA Title II asks an offeror for a notified white paper, not for an issuer authorisation.',
  not_offered_in_eu:
    'Not offered in the EU: MiCA is not engaged, so no MiCA authorisation applies.',
};

function fromRegister(
  register: 'art' | 'emt',
  file: MicaRegisters['art'] | MicaRegisters['emt'],
  lei: string | null,
): AssetMicaAuthorisation {
  const title =
    register === 'art' ? 'asset-referenced tokens (Title III)' : 'e-money tokens (Title IV)';
  const base = { rule: MICA_AUTHORISATION_RULE, register } as const;
  if (!file)
    return {
      ...base,
      status: 'unknown',
      basis: `ESMA's register of issuers of ${title} is not in this dataset, so whether the issuer is authorised is not known.`,
      register: null,
      date: null,
      date_kind: null,
    };
  const asOf = file.provenance.file_date ?? file.provenance.imported;
  const row = lei ? file.issuers.find((i) => i.lei === lei && !i.authorisation_ended) : undefined;
  if (row)
    return {
      ...base,
      status: 'authorised',
      basis: `ESMA's register of issuers of ${title} (${asOf}) lists the issuer, ${row.name}, authorised by ${row.competent_authority}.`,
      date: row.authorised,
      date_kind: !row.authorised
        ? null
        : register === 'art'
          ? 'mica_authorisation'
          : registerDateKind(row.authorised, row as EmtIssuer),
    };
  const listed = file.issuers.length;
  return {
    ...base,
    status: 'not_authorised',
    basis:
      listed === 0
        ? `ESMA's register of issuers of ${title} (${asOf}) lists no issuer: no one is authorised to offer this token in the EU as such.`
        : `ESMA's register of issuers of ${title} (${asOf}) does not list the issuer${lei ? ` (LEI ${lei})` : ''}: it is not authorised to offer this token in the EU as such.`,
    date: null,
    date_kind: null,
  };
}

/** The authorisation that goes with the asset's MiCA classification (`mica.status`). */
export function micaAuthorisation(
  record: Pick<AssetRecord, 'mica' | 'issuer'>,
  registers: MicaRegisters,
): AssetMicaAuthorisation {
  const status = record.mica.status;
  if (status === 'art' || status === 'emt')
    return fromRegister(status, registers[status], record.issuer.lei);
  return {
    status: 'not_applicable',
    basis:
      OUTSIDE[status] ??
      `The classification "${status}" engages no MiCA authorisation of the issuer.`,
    rule: MICA_AUTHORISATION_RULE,
    register: null,
    date: null,
    date_kind: null,
  };
}

/** The registers as the build holds them (LoadedMica), null where a file is missing. */
export function micaRegistersOf(
  mica: {
    register: { art: { record: ArtRegisterFile } | null; emt: { record: EmtRegisterFile } | null };
  } | null,
): MicaRegisters {
  return { art: mica?.register.art?.record ?? null, emt: mica?.register.emt?.record ?? null };
}
