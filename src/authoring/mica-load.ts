// The MiCA files beyond categories and member states: the register files the ESMA importer
// writes (data/mica/register/) and the researchers' transitional periods. A missing file is
// reported with what to run or write, not only "is missing".
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import {
  artRegisterFile,
  caspsRegisterFile,
  emtRegisterFile,
  nonCompliantRegisterFile,
} from '../domain/mica-register.ts';
import { transitionalPeriodsFile } from '../domain/mica.ts';
import type { Loaded, LoadedMicaExtras } from '../dataset/loaded.ts';
import type { DataProblem } from './problems.ts';

type LoadOne = <S extends z.ZodType>(
  absolute: string,
  schema: S,
  rule: string,
) => Loaded<z.infer<S>> | null;

export const TRANSITIONAL_FILE = 'data/mica/transitional-periods.yaml';

export const TRANSITIONAL_FIX = `write ${TRANSITIONAL_FILE}: as_of, esma_list (version, source), states (one per EU member state: iso, notified {months, esma_list_version}, national {months, end_date, condition, instrument, source}, note) and sources; schemas/data/transitional-periods.schema.json describes it`;

const REGISTER = [
  ['casps', 'casps.yaml', 'CASPS.csv', caspsRegisterFile],
  ['emt', 'emt.yaml', 'EMTWP.csv', emtRegisterFile],
  ['art', 'art.yaml', 'ARTZZ.csv', artRegisterFile],
  ['nonCompliant', 'non-compliant.yaml', 'NCASP.csv', nonCompliantRegisterFile],
] as const;

export function loadMicaExtras(
  root: string,
  problems: DataProblem[],
  loadOne: LoadOne,
): LoadedMicaExtras {
  const missing = (file: string, fix: string) => {
    problems.push({
      file,
      path: [],
      line: null,
      column: null,
      message: 'is missing',
      fix,
      rule: 'required-file',
    });
    return null;
  };
  const load = <S extends z.ZodType>(file: string, schema: S, rule: string, fix: string) =>
    existsSync(path.join(root, file))
      ? loadOne(path.join(root, file), schema, rule)
      : missing(file, fix);
  const register = Object.fromEntries(
    REGISTER.map(([key, name, esma, schema]) => [
      key,
      load(
        `data/mica/register/${name}`,
        schema,
        'mica-register-schema',
        `run npm run data:import -- esma --file <ESMA's ${esma}> --write (it writes this file)`,
      ),
    ]),
  ) as LoadedMicaExtras['register'];
  return {
    register,
    transitional: load(
      TRANSITIONAL_FILE,
      transitionalPeriodsFile,
      'transitional-periods-schema',
      TRANSITIONAL_FIX,
    ),
  };
}
