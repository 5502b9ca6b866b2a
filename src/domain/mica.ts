// EU MiCA compliance intelligence as data editors write it: data/mica/categories.yaml,
// data/mica/member-states/<iso>.yaml, data/mica/transitional-periods.yaml, data/jurisdictions.yaml,
// data/codes/readiness.yaml. The register files the importer writes are in mica-register.ts.
import { z } from 'zod';
import { countryCode, isoDate, kebabId, nonEmptyText, nullReason, sources } from './common.ts';

export const categoryCode = z.enum(['EMT', 'ART', 'CASP', 'DLT_PILOT']);

export const categoriesFile = z.strictObject({
  as_of: isoDate,
  categories: z.array(
    z.strictObject({
      code: categoryCode,
      name: nonEmptyText,
      legal_basis: nonEmptyText,
      key_dates: z.array(z.strictObject({ date: isoDate, event: nonEmptyText })).min(1),
      authorised_entities: z.strictObject({
        count: z.number().int().min(0),
        what: nonEmptyText,
        as_of: isoDate,
        source: kebabId,
      }),
      status_summary: nonEmptyText,
      sources,
    }),
  ),
});
export type CategoriesFile = z.infer<typeof categoriesFile>;

export const memberStateRecord = z.strictObject({
  iso: countryCode,
  name: nonEmptyText,
  competent_authorities: z
    .array(z.strictObject({ name: nonEmptyText, short_name: nonEmptyText, role: nonEmptyText }))
    .min(1),
  /** Written by `npm run data:import -- esma` and checked against data/mica/register/. */
  authorised_casps: z.number().int().min(0),
  emt_issuers: z.number().int().min(0),
  art_issuers: z.number().int().min(0),
  dlt_pilot_infrastructures: z.number().int().min(0),
  national_measures: z.strictObject({
    adopted: z.boolean(),
    instrument: nonEmptyText.nullable(),
    date: isoDate.nullable(),
    date_null_reason: nullReason,
  }),
  counts_as_of: isoDate,
  sources,
  as_of: isoDate,
});
export type MemberStateRecord = z.infer<typeof memberStateRecord>;

const months = z.number().int().min(0).max(18);

/**
 * The Art. 143(3) transitional ("grandfathering") period of each member state, as notified to
 * ESMA (the version of ESMA's list it was read from) and as in force under national law (its
 * end date and any condition, such as an application deadline).
 */
export const transitionalPeriodsFile = z.strictObject({
  as_of: isoDate,
  esma_list: z.array(z.strictObject({ version: isoDate, source: kebabId })).min(1),
  states: z.array(
    z.strictObject({
      iso: countryCode,
      notified: z.strictObject({
        /** null: ESMA's list showed the state as "TBA". */
        months: months.nullable(),
        esma_list_version: isoDate,
      }),
      national: z.strictObject({
        months: months.nullable(),
        end_date: isoDate.nullable(),
        condition: nonEmptyText.nullable(),
        instrument: nonEmptyText.nullable(),
        source: kebabId,
      }),
      note: nonEmptyText.nullable(),
    }),
  ),
  sources,
});
export type TransitionalPeriodsFile = z.infer<typeof transitionalPeriodsFile>;
export type TransitionalPeriod = TransitionalPeriodsFile['states'][number];

/**
 * The state of a jurisdiction's regime for crypto-assets and tokenised assets, as summarised in
 * its `regime`, at its `as_of` date (see STATUS_MEANING).
 */
export const jurisdictionStatus = z.enum([
  'in_force',
  'transition',
  'enacted_not_in_force',
  'proposed',
]);

export const STATUS_MEANING: Record<z.infer<typeof jurisdictionStatus>, string> = {
  in_force:
    'the regime applies today and no enacted change is pending; a reform that is only proposed is told in status_note',
  transition:
    'the regime applies today while an enacted reform is phased in: it has commenced in part, or awaits its commencement date, regulations or licensing gateway (dates in key_dates); firms carry on under the earlier rules meanwhile',
  enacted_not_in_force:
    'the central statute is enacted but none of it applies yet, and no earlier regime of its kind exists',
  proposed: 'the central regime is only a bill, consultation or announced plan',
};

/** Groups whose detail lives here: EU member states have their own files (data/mica/member-states/). */
const DETAILED_GROUPS = ['eea', 'other'] as const;
const DETAIL_FIELDS = ['status', 'status_note', 'sources', 'as_of'] as const;
const DETAIL_HINT: Record<(typeof DETAIL_FIELDS)[number], string> = {
  status: `one of ${jurisdictionStatus.options.join(', ')}`,
  status_note: 'what the status rests on and what is unconfirmed, or null',
  sources: 'the official pages read (id, kind, title, publisher, url, accessed, published)',
  as_of: 'the date of the review that set the status, "YYYY-MM-DD"',
};

export const jurisdictionRecord = z
  .strictObject({
    iso: countryCode,
    name: nonEmptyText,
    group: z.enum(['eu', 'eea', 'other']),
    regime: nonEmptyText,
    regulator: nonEmptyText,
    /** Required for groups eea and other; optional for eu (the member-state files carry it). */
    status: jurisdictionStatus
      .meta({
        description: `Required for groups eea and other. ${Object.entries(STATUS_MEANING)
          .map(([k, v]) => `${k}: ${v}.`)
          .join(' ')}`,
      })
      .optional(),
    /** What the status rests on and what the sources left unconfirmed; null when nothing to add. */
    status_note: nonEmptyText
      .nullable()
      .meta({
        description:
          'Required for groups eea and other (null when nothing to add): what the status rests on and what the sources left unconfirmed.',
      })
      .optional(),
    key_dates: z.array(z.strictObject({ date: isoDate, event: nonEmptyText })).optional(),
    sources: sources.optional(),
    /** The date of the review that set the status (its sources were read then). */
    as_of: isoDate.optional(),
  })
  .superRefine((j, ctx) => {
    if (!(DETAILED_GROUPS as readonly string[]).includes(j.group)) return;
    for (const field of DETAIL_FIELDS)
      if (j[field] === undefined)
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `must be given for group ${j.group}: write "${field}:" with ${DETAIL_HINT[field]} (only group eu may leave it out; data/mica/member-states/ carries the EU detail)`,
        });
  });
export type JurisdictionRecord = z.infer<typeof jurisdictionRecord>;

export const jurisdictionsFile = z.strictObject({
  as_of: isoDate,
  jurisdictions: z.array(jurisdictionRecord),
});
export type JurisdictionsFile = z.infer<typeof jurisdictionsFile>;

const tier = z.strictObject({
  min: z.number().int().min(0),
  points: z.number().int().min(0).max(100),
});

/** The readiness formula's points (data/codes/readiness.yaml), versioned. */
export const readinessTable = z.strictObject({
  version: nonEmptyText,
  competent_authority_designated: z.number().int().min(0).max(100),
  national_measures_adopted: z.number().int().min(0).max(100),
  transitional_period: z.strictObject({
    at_most_months: z
      .array(
        z.strictObject({
          months: z.number().int().min(0).max(18),
          points: z.number().int().min(0).max(100),
        }),
      )
      .min(1),
    unknown: z.number().int().min(0).max(100),
  }),
  authorised_casps: z.array(tier).min(1),
  emt_issuers: z.array(tier).min(1),
  dlt_pilot_infrastructures: z.array(tier).min(1),
});
export type ReadinessTable = z.infer<typeof readinessTable>;
