// The request half of /v1/compliance/mica-status: its parameters (the section itself is built
// with the dataset, dataset/mica-view.ts).
import type { ParamSpec } from './params.ts';
import { DELIVERY_PARAM, FORMAT_PARAM } from './bulk.ts';
import { CHANGED_SINCE_PARAM } from './changed-since-param.ts';
import { DATASET_VERSION_PARAM } from './version-param.ts';

/** Greece is GR in ISO 3166 and in this API; EL, its code in EU usage, is accepted for it. */
const MEMBER_STATE_ALIASES: Record<string, string> = { EL: 'GR' };

export const MICA_PARAMS: ParamSpec[] = [
  {
    name: 'member_state',
    description:
      'ISO 3166-1 alpha-2 code of an EU member state (case-insensitive); returns that state only. Greece is GR; EL (its EU code) is accepted as an alias and answered as GR.',
    pattern: /^[A-Z]{2}$/,
    format: 'an ISO 3166-1 alpha-2 code',
    normalise: (s) => {
      const code = s.trim().toUpperCase();
      return MEMBER_STATE_ALIASES[code] ?? code;
    },
    example: 'DE',
  },
  CHANGED_SINCE_PARAM,
  DATASET_VERSION_PARAM,
  FORMAT_PARAM,
  DELIVERY_PARAM,
];
