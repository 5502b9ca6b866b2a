// Response shape of /v1/compliance/mica-status: per member state its facts, readiness score,
// transitional period, and the named entities behind its counts (from ESMA's register), with
// the version of each register file in `data.register`. No addresses: names, LEIs and dates.
import { z } from 'zod';
import { lastChangedField, meta } from './api.ts';
import { importProvenance } from './common.ts';
import { caspEntity, emtIssuer, emtToken } from './mica-register.ts';
import {
  categoriesFile,
  jurisdictionRecord,
  memberStateRecord,
  transitionalPeriodsFile,
} from './mica.ts';

const readinessComponent = z.strictObject({
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  points: z.number().int().min(0).max(100),
});

const transitionalState = transitionalPeriodsFile.shape.states.element;

export const caspSummary = caspEntity
  .pick({ lei: true, name: true, services: true, authorised: true })
  .meta({
    id: 'AuthorisedCasp',
    description: "A CASP in ESMA's interim register: services are MiCA Art. 3(1)(16) letters a–j.",
  });

export const emtIssuerSummary = emtIssuer
  .pick({ lei: true, name: true, commercial_name: true, authorised: true })
  .extend({
    tokens: z.array(
      emtToken.pick({ dti_ffg: true, url: true, notified: true }).extend({
        dti: z.array(z.string()),
      }),
    ),
  })
  .meta({
    id: 'EmtIssuer',
    description:
      'An EMT issuer with its white papers: DTI of the functionally fungible group, per-ledger DTIs, white-paper URL and notification date.',
  });

export const memberStateView = memberStateRecord
  .safeExtend({
    transitional_period: transitionalState.omit({ iso: true }).extend({
      /** The months the readiness formula scores: national law's, else the notified value. */
      months_scored: z.number().int().nullable(),
    }),
    entities: z.strictObject({
      casps: z.array(caspSummary),
      emt_issuers: z.array(emtIssuerSummary),
      art_issuers: z.array(emtIssuerSummary.omit({ tokens: true })),
    }),
    readiness: z.strictObject({
      score: z.number().int().min(0).max(100),
      formula_version: z.string(),
      components: z.strictObject({
        competent_authority: readinessComponent,
        national_measures: readinessComponent,
        transitional_period_months: readinessComponent,
        authorised_casps: readinessComponent,
        emt_issuers: readinessComponent,
        dlt_pilot_infrastructures: readinessComponent,
      }),
    }),
    last_changed: lastChangedField,
  })
  .meta({
    id: 'MemberStateReadiness',
    description:
      'An EU member state with its MiCA readiness score and the components it is computed from, its transitional period, and the entities behind its counts.',
  });

const registerVersion = importProvenance.omit({ file_name: true });

export const jurisdictionView = jurisdictionRecord.meta({
  id: 'Jurisdiction',
  description:
    'A jurisdiction covered: its regulator and regime and, for groups eea and other, the status of the regime (in_force, transition, enacted_not_in_force or proposed), a note on what it rests on and what is unconfirmed, key dates, the sources read and the review date (as_of). EU member states carry that detail in member_states.',
});

export const micaStatusBody = z
  .strictObject({
    data: z.strictObject({
      categories: categoriesFile.shape.categories,
      member_states: z.array(memberStateView),
      register: z
        .strictObject({
          casps: registerVersion,
          emt: registerVersion,
          art: registerVersion,
          non_compliant: registerVersion,
        })
        .meta({
          description: 'The version of each ESMA register file the counts and entities come from.',
        }),
      transitional_periods: z.strictObject({
        as_of: z.iso.date(),
        esma_list: transitionalPeriodsFile.shape.esma_list,
        sources: transitionalPeriodsFile.shape.sources,
      }),
      coverage: z.strictObject({
        jurisdictions: z.number().int(),
        by_group: z.strictObject({
          eu: z.number().int(),
          eea: z.number().int(),
          other: z.number().int(),
        }),
        as_of: z.iso.date(),
        list: z.array(jurisdictionView),
      }),
    }),
    meta: meta.extend({
      member_states: z.number().int(),
      readiness_formula_version: z.string(),
      query: z.record(z.string(), z.string()),
    }),
  })
  .meta({ id: 'MicaStatusResponse' });

export type MemberStateView = z.infer<typeof memberStateView>;
export type MicaStatusBody = z.infer<typeof micaStatusBody>;
