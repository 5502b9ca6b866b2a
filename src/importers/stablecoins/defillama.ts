// DefiLlama's stablecoins API, in its two documented shapes, read into one list of dated
// circulating amounts:
//   GET /stablecoins      { peggedAssets: [{ id, name, symbol, pegType, circulating: { peggedUSD: n } }] }
//                         (no date in the answer: the date is the file's, from its name or the
//                         HTTP Last-Modified header)
//   GET /stablecoin/{id}  { id, name, symbol, pegType, chainBalances: { <chain>: { tokens:
//                         [{ date: <unix seconds>, circulating: { peggedUSD: n } }] } } }
//                         (dated by the API itself: the newest `date`)
// Amounts are keyed by peg (`peggedUSD`, `peggedEUR`…) and are token counts, one unit of the peg
// currency each.
import { ImportError } from '../shared/errors.ts';
import type { SourceInput } from '../shared/input.ts';
import { isCalendarDate } from '../../lib/calendar-date.ts';
import { JsonInput, type JsonObject, type JsonPath } from '../shared/json-input.ts';

export const API = 'https://stablecoins.llama.fi';

export interface PeggedAmount {
  id: string;
  name: string;
  symbol: string;
  /** The peg's currency as DefiLlama names it: `peggedEUR` → `EUR` (and `peggedREAL` → `REAL`). */
  peg: string;
  /** Token count at `as_of`, null when the answer has none for the coin's own peg. */
  circulating: number | null;
  as_of: string;
}

export interface DefiLlamaAnswer {
  shape: 'list' | 'detail';
  coins: PeggedAmount[];
  /** The API URL the answer comes from (the publisher's canonical URL of the bytes). */
  api_url: string;
  rows: number;
}

const LIST =
  'DefiLlama /stablecoins: peggedAssets[] with id, name, symbol, pegType and circulating';
const DETAIL =
  'DefiLlama /stablecoin/{id}: id, name, symbol, pegType and chainBalances.<chain>.tokens[] with date (Unix seconds) and circulating';
// DefiLlama's stablecoin data starts in 2017; a date before is not one of its dates.
const FIRST_DAY = Date.UTC(2017, 0, 1) / 1000;

function pegOf(json: JsonInput, at: JsonPath, pegType: string, expected: string): string {
  const peg = /^pegged([A-Z]{3,})$/.exec(pegType)?.[1];
  if (!peg)
    json.fail(at, `"${pegType}" is not a peg type`, `${expected}; pegType like "peggedUSD"`);
  return peg;
}

function identity(json: JsonInput, coin: JsonObject, at: JsonPath, expected: string) {
  const rawId = coin['id'];
  const id =
    typeof rawId === 'number'
      ? String(rawId)
      : json.get<string>(coin, [...at, 'id'], 'string', expected);
  const name = json.get<string>(coin, [...at, 'name'], 'string', expected);
  const symbol = json.get<string>(coin, [...at, 'symbol'], 'string', expected);
  const pegType = json.get<string>(coin, [...at, 'pegType'], 'string', expected);
  return { id, name, symbol, pegType, peg: pegOf(json, [...at, 'pegType'], pegType, expected) };
}

function amount(json: JsonInput, bag: JsonObject, at: JsonPath, pegType: string, expected: string) {
  const value = bag[pegType];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    json.fail([...at, pegType], `is ${JSON.stringify(value)}, not an amount`, expected);
  return value;
}

function listDate(input: SourceInput, today: string): string {
  const date = input.file_date;
  if (date === null)
    throw new ImportError(
      { input: input.name },
      'has no date: the /stablecoins answer carries none',
      'a file named YYYY-MM-DD-….json (the day it was downloaded) or a URL answering with Last-Modified',
    );
  if (!isCalendarDate(date) || date > today)
    throw new ImportError(
      { input: input.name },
      `the date in its name (${date}) is not a calendar date on or before ${today}`,
      'a file named YYYY-MM-DD-….json with the day it was downloaded',
    );
  return date;
}

function readList(
  json: JsonInput,
  root: JsonObject,
  input: SourceInput,
  today: string,
): DefiLlamaAnswer {
  const assets = json.get<unknown[]>(root, ['peggedAssets'], 'array', LIST);
  const as_of = listDate(input, today);
  const seen = new Map<string, number>();
  const coins = assets.map((raw, i) => {
    const at = ['peggedAssets', i];
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      json.fail(at, 'is not an object', LIST);
    const coin = raw as JsonObject;
    const { id, name, symbol, pegType, peg } = identity(json, coin, at, LIST);
    const first = seen.get(id);
    if (first !== undefined)
      json.fail(
        [...at, 'id'],
        `id "${id}" appears again (first at peggedAssets[${first}])`,
        `${LIST}; each id once`,
      );
    seen.set(id, i);
    const circulating = json.get<JsonObject>(coin, [...at, 'circulating'], 'object', LIST);
    return {
      id,
      name,
      symbol,
      peg,
      circulating: amount(json, circulating, [...at, 'circulating'], pegType, LIST),
      as_of,
    };
  });
  return { shape: 'list', coins, api_url: `${API}/stablecoins`, rows: assets.length };
}

/** The newest entry of one chain's daily series, its date checked. */
function newestOf(json: JsonInput, tokens: unknown[], at: JsonPath, today: string) {
  const maxTime = Date.parse(`${today}T23:59:59Z`) / 1000;
  const dates = new Map<number, number>();
  let newest: { date: number; entry: JsonObject; i: number } | null = null;
  tokens.forEach((raw, i) => {
    const entryAt = [...at, i];
    if (typeof raw !== 'object' || raw === null) json.fail(entryAt, 'is not an object', DETAIL);
    const entry = raw as JsonObject;
    const date = entry['date'];
    if (typeof date !== 'number' || !Number.isInteger(date) || date < FIRST_DAY || date > maxTime)
      json.fail(
        [...entryAt, 'date'],
        `${JSON.stringify(date)} is not a date between 2017-01-01 and ${today}`,
        `${DETAIL}; date in Unix seconds`,
      );
    const first = dates.get(date);
    if (first !== undefined)
      json.fail(
        [...entryAt, 'date'],
        `date ${date} appears again (first at tokens[${first}])`,
        `${DETAIL}; one entry per date`,
      );
    dates.set(date, i);
    if (!newest || date > newest.date) newest = { date, entry, i };
  });
  return newest as { date: number; entry: JsonObject; i: number } | null;
}

function readDetail(json: JsonInput, root: JsonObject, today: string): DefiLlamaAnswer {
  const { id, name, symbol, pegType, peg } = identity(json, root, [], DETAIL);
  const chains = json.get<JsonObject>(root, ['chainBalances'], 'object', DETAIL);
  // The coin's supply is the sum over its chains of each chain's newest amount, dated by the
  // newest date of all (a chain DefiLlama stopped tracking keeps its last amount, as on its site).
  let total = 0;
  let newestDate = 0;
  let rows = 0;
  for (const chain of Object.keys(chains).sort()) {
    const bag = json.get<JsonObject>(chains, ['chainBalances', chain], 'object', DETAIL);
    const tokens = json.get<unknown[]>(bag, ['chainBalances', chain, 'tokens'], 'array', DETAIL);
    rows += tokens.length;
    const newest = newestOf(json, tokens, ['chainBalances', chain, 'tokens'], today);
    if (!newest) continue;
    const at = ['chainBalances', chain, 'tokens', newest.i, 'circulating'];
    const circulating = json.get<JsonObject>(newest.entry, at, 'object', DETAIL);
    total += amount(json, circulating, at, pegType, DETAIL) ?? 0;
    newestDate = Math.max(newestDate, newest.date);
  }
  if (!newestDate) json.fail(['chainBalances'], 'has no dated amounts', DETAIL);
  const as_of = new Date(newestDate * 1000).toISOString().slice(0, 10);
  return {
    shape: 'detail',
    coins: [{ id, name, symbol, peg, circulating: total, as_of }],
    api_url: `${API}/stablecoin/${encodeURIComponent(id)}`,
    rows,
  };
}

export function readDefiLlama(input: SourceInput, today: string): DefiLlamaAnswer {
  const json = new JsonInput(input);
  const root = json.value;
  if (typeof root !== 'object' || root === null || Array.isArray(root))
    json.fail([], 'is not a JSON object', `${LIST}, or ${DETAIL}`);
  const object = root as JsonObject;
  if ('peggedAssets' in object) return readList(json, object, input, today);
  if ('chainBalances' in object) return readDetail(json, object, today);
  return json.fail([], 'has neither "peggedAssets" nor "chainBalances"', `${LIST}, or ${DETAIL}`);
}
