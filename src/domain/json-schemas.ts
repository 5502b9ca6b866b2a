// The published JSON Schemas, generated from the zod schemas (the single source of truth).
// scripts/schemas.ts writes them to schemas/; a test fails when the committed files drift.
import { z } from 'zod';
import { assetRecord } from './asset.ts';
import {
  custodyTable,
  gradesTable,
  ledgerTable,
  micaStatusTable,
  riskFactorTable,
  sourcePolicyTable,
  tficTable,
} from './codes.ts';
import { releaseFile } from './release.ts';
import { micaStatusBody, stablecoinsBody } from './api-market.ts';
import { systemStatusBody } from './api-status.ts';
import { fxFile, stablecoinRecord, stablecoinScoresTable, venuesFile } from './market.ts';
import { categoriesFile, jurisdictionsFile, memberStateRecord, readinessTable } from './mica.ts';
import { assetListBody, assetProfileBody, problem } from './api.ts';

export const SCHEMA_BANNER =
  'Generated from the zod schemas in src/domain by `npm run schemas` — do not edit.';

interface Published {
  file: string;
  title: string;
  schema: z.ZodType;
  io: 'input' | 'output';
  /** For data-file schemas: the files it validates, for the editor mapping in .vscode/settings.json. */
  edits?: string;
}

export const PUBLISHED_SCHEMAS: readonly Published[] = [
  {
    file: 'data/asset-record.schema.json',
    title: 'Registry asset record (data/assets/<TFIN>.yaml)',
    schema: assetRecord,
    io: 'input',
    edits: 'data/assets/*.yaml',
  },
  {
    file: 'data/codes/tfic.schema.json',
    title: 'TFIC code table',
    schema: tficTable,
    io: 'input',
    edits: 'data/codes/tfic.yaml',
  },
  {
    file: 'data/codes/ledgers.schema.json',
    title: 'Ledger code table',
    schema: ledgerTable,
    io: 'input',
    edits: 'data/codes/ledgers.yaml',
  },
  {
    file: 'data/codes/mica-status.schema.json',
    title: 'MiCA status vocabulary',
    schema: micaStatusTable,
    io: 'input',
    edits: 'data/codes/mica-status.yaml',
  },
  {
    file: 'data/codes/custody.schema.json',
    title: 'Custody vocabulary and points',
    schema: custodyTable,
    io: 'input',
    edits: 'data/codes/custody.yaml',
  },
  {
    file: 'data/codes/grades.schema.json',
    title: 'Grade scales',
    schema: gradesTable,
    io: 'input',
    edits: 'data/codes/grades.yaml',
  },
  {
    file: 'data/codes/risk-factors.schema.json',
    title: 'Risk factor table',
    schema: riskFactorTable,
    io: 'input',
    edits: 'data/codes/risk-factors.yaml',
  },
  {
    file: 'data/codes/stablecoin-scores.schema.json',
    title: 'Stablecoin score points',
    schema: stablecoinScoresTable,
    io: 'input',
    edits: 'data/codes/stablecoin-scores.yaml',
  },
  {
    file: 'data/codes/readiness.schema.json',
    title: 'Member-state readiness points',
    schema: readinessTable,
    io: 'input',
    edits: 'data/codes/readiness.yaml',
  },
  {
    file: 'data/stablecoin-record.schema.json',
    title: 'Stablecoin record (data/stablecoins/<id>.yaml)',
    schema: stablecoinRecord,
    io: 'input',
    edits: 'data/stablecoins/*.yaml',
  },
  {
    file: 'data/venues.schema.json',
    title: 'Trading venues (data/venues.yaml)',
    schema: venuesFile,
    io: 'input',
    edits: 'data/venues.yaml',
  },
  {
    file: 'data/fx.schema.json',
    title: 'ECB reference rates (data/fx.yaml)',
    schema: fxFile,
    io: 'input',
    edits: 'data/fx.yaml',
  },
  {
    file: 'data/mica-categories.schema.json',
    title: 'MiCA categories (data/mica/categories.yaml)',
    schema: categoriesFile,
    io: 'input',
    edits: 'data/mica/categories.yaml',
  },
  {
    file: 'data/member-state.schema.json',
    title: 'Member state (data/mica/member-states/<iso>.yaml)',
    schema: memberStateRecord,
    io: 'input',
    edits: 'data/mica/member-states/*.yaml',
  },
  {
    file: 'data/jurisdictions.schema.json',
    title: 'Jurisdictions covered (data/jurisdictions.yaml)',
    schema: jurisdictionsFile,
    io: 'input',
    edits: 'data/jurisdictions.yaml',
  },
  {
    file: 'data/codes/source-policy.schema.json',
    title: 'Source and freshness policy',
    schema: sourcePolicyTable,
    io: 'input',
    edits: 'data/codes/source-policy.yaml',
  },
  {
    file: 'data/release.schema.json',
    title: 'Data release (data/release.yaml)',
    schema: releaseFile,
    io: 'input',
    edits: 'data/release.yaml',
  },
  {
    file: 'v1/registry-assets.schema.json',
    title: 'GET /v1/registry/assets response',
    schema: assetListBody,
    io: 'output',
  },
  {
    file: 'v1/registry-asset.schema.json',
    title: 'GET /v1/registry/asset response',
    schema: assetProfileBody,
    io: 'output',
  },
  {
    file: 'v1/market-stablecoins.schema.json',
    title: 'GET /v1/market/stablecoins response',
    schema: stablecoinsBody,
    io: 'output',
  },
  {
    file: 'v1/compliance-mica-status.schema.json',
    title: 'GET /v1/compliance/mica-status response',
    schema: micaStatusBody,
    io: 'output',
  },
  {
    file: 'v1/system-status.schema.json',
    title: 'GET /v1/system/status response',
    schema: systemStatusBody,
    io: 'output',
  },
  {
    file: 'v1/problem.schema.json',
    title: 'Problem details (RFC 9457)',
    schema: problem,
    io: 'output',
  },
];

export function schemaId(file: string): string {
  return `/schemas/${file}`;
}

export function generateJsonSchema(p: Published): Record<string, unknown> {
  const generated = z.toJSONSchema(p.schema, {
    target: 'draft-2020-12',
    io: p.io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return { $schema, $id: schemaId(p.file), $comment: SCHEMA_BANNER, title: p.title, ...rest };
}

/** The editor mapping (.vscode/settings.json): every data-file schema to the files it validates. */
export function editorSettings(): string {
  const mapping = Object.fromEntries(
    PUBLISHED_SCHEMAS.filter((p) => p.edits).map((p) => [`./schemas/${p.file}`, p.edits]),
  );
  const json = JSON.stringify(
    { 'yaml.schemas': mapping, 'files.insertFinalNewline': true },
    null,
    2,
  );
  return `// Generated from src/domain/json-schemas.ts by \`npm run schemas\` — do not edit.\n${json}\n`;
}

export function generateAll(): Map<string, string> {
  return new Map(
    PUBLISHED_SCHEMAS.map((p) => [p.file, `${JSON.stringify(generateJsonSchema(p), null, 2)}\n`]),
  );
}
