// ESMA's interim MiCA register as the importer writes it: data/mica/register/{casps,emt,art,
// non-compliant}.yaml. Generated files (never edited by hand): the named entities behind the
// member-state counts, each file with the provenance of the ESMA file it was read from.
import { z } from 'zod';
import { countryCode, importProvenance, isoDate, nonEmptyText } from './common.ts';

const lei = z.string().regex(/^[A-Z0-9]{18}[0-9]{2}$/, { error: 'must be a 20-character LEI' });
const dti = z.string().regex(/^[0-9A-Z]{9}$/, { error: 'must be a 9-character DTI' });
export const serviceCode = z.enum(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);

const registerFile = <K extends string, S extends z.ZodRawShape>(register: K, shape: S) =>
  z.strictObject({ register: z.literal(register), provenance: importProvenance, ...shape });

const entity = {
  lei: lei.nullable(),
  name: nonEmptyText,
  commercial_name: nonEmptyText.nullable(),
  home_member_state: countryCode,
  competent_authority: nonEmptyText,
};

/** One CASP: its authorisation and Art. 60 notification rows merged (LEI + name identify it). */
export const caspEntity = z.strictObject({
  ...entity,
  /** ESMA's text when it is not LEI-shaped (then `lei` is null): kept, never corrected. */
  lei_as_published: nonEmptyText.optional(),
  /** MiCA Art. 3(1)(16) letters, a–j, of every active authorisation row. */
  services: z.array(serviceCode),
  /** Host member states of the passport, without the home state. */
  passported_to: z.array(countryCode),
  /** The earliest authorisation or notification date; null when ESMA gives none. */
  authorised: isoDate.nullable(),
  /** The end date of the authorisation, when every row of the entity has one. */
  withdrawn: isoDate.nullable(),
  last_update: isoDate.nullable(),
});

export const whitePaper = z.strictObject({
  url: nonEmptyText.nullable(),
  notified: isoDate.nullable(),
  last_update: isoDate.nullable(),
  comment: nonEmptyText.nullable(),
});

/**
 * An EMT white paper (one register row): the token's DTI of its functionally fungible group and
 * per-ledger DTIs, and the row's own authorisation-or-notification date (ESMA's
 * `ac_authorisationNotificationDate`; rows of one issuer may differ, so each token keeps its own).
 */
export const emtToken = whitePaper.extend({
  dti_ffg: dti.nullable(),
  dti: z.array(z.strictObject({ code: dti, ledger: nonEmptyText.nullable() })),
  authorised: isoDate.nullable().optional(),
  authorisation_ended: isoDate.nullable().optional(),
});

export const emtIssuer = z.strictObject({
  ...entity,
  lei,
  institution: nonEmptyText.nullable(),
  /** The earliest date of the issuer's rows (each token's own is `tokens[].authorised`). */
  authorised: isoDate.nullable(),
  authorisation_ended: isoDate.nullable(),
  tokens: z.array(emtToken),
});

export const artIssuer = z.strictObject({
  ...entity,
  lei,
  credit_institution: z.boolean().nullable(),
  authorised: isoDate.nullable(),
  authorisation_ended: isoDate.nullable(),
  white_papers: z.array(whitePaper.extend({ passported_to: z.array(countryCode) })),
});

export const nonCompliantEntity = z.strictObject({
  ...entity,
  websites: z.array(nonEmptyText),
  /** ESMA's "ae_infrigment": whether the decision found an infringement. */
  infringement: z.boolean().nullable(),
  reason: nonEmptyText.nullable(),
  decision_date: isoDate,
  last_update: isoDate.nullable(),
  comment: nonEmptyText.nullable(),
});

export const caspsRegisterFile = registerFile('casps', { entities: z.array(caspEntity) });
export const emtRegisterFile = registerFile('emt', { issuers: z.array(emtIssuer) });
export const artRegisterFile = registerFile('art', { issuers: z.array(artIssuer) });
export const nonCompliantRegisterFile = registerFile('non-compliant', {
  entities: z.array(nonCompliantEntity),
});

export type ServiceCode = z.infer<typeof serviceCode>;
export type CaspEntity = z.infer<typeof caspEntity>;
export type EmtIssuer = z.infer<typeof emtIssuer>;
export type EmtToken = z.infer<typeof emtToken>;
export type ArtIssuer = z.infer<typeof artIssuer>;
export type NonCompliantEntity = z.infer<typeof nonCompliantEntity>;
export type CaspsRegisterFile = z.infer<typeof caspsRegisterFile>;
export type EmtRegisterFile = z.infer<typeof emtRegisterFile>;
export type ArtRegisterFile = z.infer<typeof artRegisterFile>;
export type NonCompliantRegisterFile = z.infer<typeof nonCompliantRegisterFile>;
