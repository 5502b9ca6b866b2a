// GLEIF's public API answer (GET https://api.gleif.org/api/v1/lei-records?filter[lei]=A,B,…),
// read into the facts the registry checks and keeps: legal name (and other names, for matching),
// entity and registration status, last update and jurisdiction.
import type { SourceInput } from '../shared/input.ts';
import { JsonInput, type JsonObject } from '../shared/json-input.ts';

export const API = 'https://api.gleif.org/api/v1/lei-records';

export interface LeiRecord {
  lei: string;
  legal_name: string;
  /** Other and transliterated names, for matching a record's issuer name. */
  other_names: string[];
  entity_status: string;
  registration_status: string;
  /** ISO 8601 UTC, whole seconds. */
  last_update: string;
  jurisdiction: string | null;
}

export interface GleifAnswer {
  records: LeiRecord[];
  /** meta.goldenCopy.publishDate: the GLEIF data version the answer comes from, when given. */
  published: string | null;
}

const SHAPE =
  'GLEIF /api/v1/lei-records: data[].attributes with lei, entity.legalName.name, entity.status, entity.jurisdiction, registration.status, registration.lastUpdateDate';
const LEI = /^[0-9A-Z]{18}[0-9]{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** GLEIF dates are ISO 8601 with an offset; kept in UTC, whole seconds. */
function timestamp(json: JsonInput, parent: JsonObject, at: (string | number)[]): string {
  const text = json.get<string>(parent, at, 'string', SHAPE);
  const time = Date.parse(text);
  if (!TIMESTAMP.test(text) || Number.isNaN(time))
    json.fail(
      at,
      `"${text}" is not a date and time`,
      `${SHAPE}; dates as ISO 8601 with offset, e.g. "2025-06-12T09:30:00Z"`,
    );
  return new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const names = (list: unknown): string[] =>
  Array.isArray(list)
    ? list.flatMap((n) =>
        typeof (n as JsonObject)?.['name'] === 'string' ? [(n as { name: string }).name] : [],
      )
    : [];

function readRecord(json: JsonInput, raw: unknown, i: number): LeiRecord {
  const at = ['data', i];
  if (typeof raw !== 'object' || raw === null) json.fail(at, 'is not an object', SHAPE);
  const attributes = json.get<JsonObject>(
    raw as JsonObject,
    [...at, 'attributes'],
    'object',
    SHAPE,
  );
  const a = [...at, 'attributes'];
  const lei = json.get<string>(attributes, [...a, 'lei'], 'string', SHAPE);
  if (!LEI.test(lei))
    json.fail([...a, 'lei'], `"${lei}" is not an LEI`, `${SHAPE}; 20 characters (ISO 17442)`);
  const entity = json.get<JsonObject>(attributes, [...a, 'entity'], 'object', SHAPE);
  const e = [...a, 'entity'];
  const legalName = json.get<JsonObject>(entity, [...e, 'legalName'], 'object', SHAPE);
  const registration = json.get<JsonObject>(attributes, [...a, 'registration'], 'object', SHAPE);
  const r = [...a, 'registration'];
  const jurisdiction = entity['jurisdiction'];
  return {
    lei,
    legal_name: json.get<string>(legalName, [...e, 'legalName', 'name'], 'string', SHAPE),
    other_names: [...names(entity['otherNames']), ...names(entity['transliteratedOtherNames'])],
    entity_status: json.get<string>(entity, [...e, 'status'], 'string', SHAPE),
    registration_status: json.get<string>(registration, [...r, 'status'], 'string', SHAPE),
    last_update: timestamp(json, registration, [...r, 'lastUpdateDate']),
    jurisdiction: typeof jurisdiction === 'string' && jurisdiction ? jurisdiction : null,
  };
}

export function readGleif(input: SourceInput): GleifAnswer {
  const json = new JsonInput(input);
  if (typeof json.value !== 'object' || json.value === null || Array.isArray(json.value))
    json.fail([], 'is not a JSON object', SHAPE);
  const root = json.value as JsonObject;
  const data = json.get<unknown[]>(root, ['data'], 'array', SHAPE);
  const seen = new Map<string, number>();
  const records = data.map((raw, i) => {
    const record = readRecord(json, raw, i);
    const first = seen.get(record.lei);
    if (first !== undefined)
      json.fail(
        ['data', i, 'attributes', 'lei'],
        `LEI ${record.lei} appears again (first at data[${first}])`,
        `${SHAPE}; each LEI once`,
      );
    seen.set(record.lei, i);
    return record;
  });
  const meta = root['meta'] as JsonObject | undefined;
  const golden = meta?.['goldenCopy'] as JsonObject | undefined;
  const published =
    golden && 'publishDate' in golden
      ? timestamp(json, golden, ['meta', 'goldenCopy', 'publishDate'])
      : null;
  return { records, published };
}
