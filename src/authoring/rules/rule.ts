// The one shape of a named data rule (DataCheck: a name and a run over the loaded data that
// returns problems), the context every rule reads, and the helpers rules are written with. Each
// rule is one file in this folder; index.ts lists them all, in the order data:check runs them.
import { allFigures, type DatedFigure } from '../../dataset/figures.ts';
import type {
  Loaded,
  LoadedAsset,
  LoadedMarket,
  LoadedMica,
  YamlFile,
} from '../../dataset/loaded.ts';
import type { AssetRecord } from '../../domain/asset.ts';
import type { CodeTables } from '../../domain/codes.ts';
import { closest } from '../../lib/edit-distance.ts';
import type { DataProblem } from '../problems.ts';
import { problemAt } from '../yaml-file.ts';
import path from 'node:path';

export interface CheckContext {
  assets: LoadedAsset[];
  /** null when data/stablecoins does not exist (e.g. in asset-only fixtures). */
  market: LoadedMarket | null;
  mica: LoadedMica | null;
  codes: CodeTables;
  /** The code tables' files (data/codes/*.yaml), where the rules over a table report. */
  codeFiles: CodeFiles;
  /** The latest date any record may carry (today, at build time). */
  today: string;
  /** The date the release describes (data/release.yaml): figures are aged at it. */
  datasetDate: string;
}

export type CodeFiles = Record<keyof CodeTables, YamlFile>;

export interface DataCheck {
  name: string;
  run(ctx: CheckContext): DataProblem[];
  /**
   * A rule the data do not meet yet, run in warning mode: its problems are printed by data:check
   * but do not fail it (loadData's `warnings`). Set from one constant in the rule's file.
   */
  warnOnly?: boolean;
}

/** Up to this many allowed values are listed in a fix; a longer table is named instead. */
const LISTED_AT_MOST = 40;

export const oneOf = (value: string, allowed: readonly string[], listedIn = 'the code table') => {
  const near = closest(value, allowed);
  if (allowed.length > LISTED_AT_MOST) {
    // Not counted: a pinned message would change with every code added.
    return near ? `use "${near}" (or another code of ${listedIn})` : `use a code of ${listedIn}`;
  }
  return near
    ? `use "${near}" (allowed: ${allowed.join(', ')})`
    : `use one of: ${allowed.join(', ')}`;
};

export type Report = (at: (string | number)[], message: string, fix: string) => void;

/**
 * A check run record by record over what `pick` selects. A record that failed its schema may lack
 * what the check reads: the schema already reported that, so an error on such a record ends the
 * check for it. On a valid record an error is a bug in the check, and is thrown.
 */
export function perRecord<T>(
  name: string,
  pick: (ctx: CheckContext) => Loaded<T>[],
  fn: (item: Loaded<T>, ctx: CheckContext, report: Report) => void,
): DataCheck {
  return {
    name,
    run(ctx) {
      const problems: DataProblem[] = [];
      for (const item of pick(ctx)) {
        try {
          fn(item, ctx, (at, message, fix) =>
            problems.push(problemAt(item.file, at, name, message, fix)),
          );
        } catch (err) {
          if (!item.schemaFailed) throw err;
        }
      }
      return problems;
    },
  };
}

/** A value that must not repeat across files; null values are skipped. */
export function uniqueBy<T>(
  name: string,
  pick: (ctx: CheckContext) => Loaded<T>[],
  valueOf: (record: T) => string | null | undefined,
  at: (string | number)[],
  message: (firstFile: string) => string,
  fix: string,
): DataCheck {
  return {
    name,
    run(ctx) {
      const seen = new Map<string, string>();
      const problems: DataProblem[] = [];
      for (const { file, record } of pick(ctx)) {
        const value = valueOf(record);
        if (typeof value !== 'string' || !value) continue;
        const first = seen.get(value);
        if (first) problems.push(problemAt(file, at, name, message(first), fix));
        else seen.set(value, file.file);
      }
      return problems;
    },
  };
}

/** The file is named after the record's id: `<id>.yaml`. */
export function namedAfter<T>(
  name: string,
  pick: (ctx: CheckContext) => Loaded<T>[],
  idField: keyof T & string,
): DataCheck {
  return perRecord<T>(name, pick, ({ file, record }, _ctx, report) => {
    const id = String(record[idField]);
    const actual = path.posix.basename(file.file);
    if (actual !== `${id}.yaml`)
      report(
        [idField],
        `does not match the file name "${actual}"`,
        `rename the file to ${id}.yaml, or correct the ${idField}`,
      );
  });
}

/** Dates after `today`, each at its path: data describe what is known today. */
export function reportFutureDates(
  dated: [(string | number)[], string | null | undefined][],
  today: string,
  report: Report,
): void {
  for (const [at, date] of dated)
    if (date && date > today)
      report(
        at,
        `${date} is in the future`,
        `data describe what is known today (${today}): correct the date`,
      );
}

/** Pickers: what a rule runs over. */
export const assetsOf = (ctx: CheckContext) => ctx.assets;
export const perAsset = (
  name: string,
  fn: (a: LoadedAsset, ctx: CheckContext, report: Report) => void,
) => perRecord<AssetRecord>(name, assetsOf, fn);

/** A rule run figure by figure (every dated figure of assets and stablecoins). */
export function figureCheck(
  name: string,
  fn: (figure: DatedFigure, ctx: Parameters<DataCheck['run']>[0], report: Report) => void,
): DataCheck {
  return {
    name,
    run(ctx) {
      const problems: DataProblem[] = [];
      for (const figure of allFigures(ctx))
        fn(figure, ctx, (at, message, fix) =>
          problems.push(problemAt(figure.item.file, [...figure.at, ...at], name, message, fix)),
        );
      return problems;
    },
  };
}

export const coins = (ctx: CheckContext) => ctx.market?.stablecoins ?? [];
export const venuesFile = (ctx: CheckContext) => (ctx.market?.venues ? [ctx.market.venues] : []);
export const fxFile = (ctx: CheckContext) => (ctx.market?.fx ? [ctx.market.fx] : []);

/** Reports a problem in any file: rules over several files say which. */
export type ReportAt = (
  file: YamlFile,
  at: (string | number)[],
  message: string,
  fix: string,
) => void;

/** A rule over the MiCA files together; it runs when data/mica exists. */
export function micaRule(
  name: string,
  fn: (ctx: CheckContext & { mica: LoadedMica }, report: ReportAt) => void,
): DataCheck {
  return {
    name,
    run(ctx) {
      const problems: DataProblem[] = [];
      const { mica } = ctx;
      if (mica)
        fn({ ...ctx, mica }, (file, at, message, fix) =>
          problems.push(problemAt(file, at, name, message, fix)),
        );
      return problems;
    },
  };
}

type LedgerEntry = CodeTables['ledgers']['ledgers'][number];

/** A rule over data/codes/ledgers.yaml; `report` takes a path below `ledgers`. */
export function ledgerTableRule(
  name: string,
  fn: (ledgers: readonly LedgerEntry[], report: Report) => void,
): DataCheck {
  return {
    name,
    run(ctx) {
      const problems: DataProblem[] = [];
      fn(ctx.codes.ledgers.ledgers, (at, message, fix) =>
        problems.push(problemAt(ctx.codeFiles.ledgers, ['ledgers', ...at], name, message, fix)),
      );
      return problems;
    },
  };
}

/**
 * Values that must name one ledger only: each repeat is reported at its path, saying which
 * ledger had the value first.
 */
export function reportRepeats(
  ledgers: readonly LedgerEntry[],
  valuesOf: (ledger: LedgerEntry) => [value: string, at: (string | number)[]][],
  message: (value: string, first: LedgerEntry) => string,
  fix: string,
  report: Report,
): void {
  const first = new Map<string, LedgerEntry>();
  ledgers.forEach((ledger, i) => {
    for (const [value, at] of valuesOf(ledger)) {
      const owner = first.get(value);
      if (owner) report([i, ...at], message(value, owner), fix);
      else first.set(value, ledger);
    }
  });
}
