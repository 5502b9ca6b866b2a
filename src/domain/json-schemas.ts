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
  tficTable,
} from './codes.ts';
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
}

export const PUBLISHED_SCHEMAS: readonly Published[] = [
  {
    file: 'data/asset-record.schema.json',
    title: 'Registry asset record (data/assets/<TFIN>.yaml)',
    schema: assetRecord,
    io: 'input',
  },
  { file: 'data/codes/tfic.schema.json', title: 'TFIC code table', schema: tficTable, io: 'input' },
  {
    file: 'data/codes/ledgers.schema.json',
    title: 'Ledger code table',
    schema: ledgerTable,
    io: 'input',
  },
  {
    file: 'data/codes/mica-status.schema.json',
    title: 'MiCA status vocabulary',
    schema: micaStatusTable,
    io: 'input',
  },
  {
    file: 'data/codes/custody.schema.json',
    title: 'Custody vocabulary and points',
    schema: custodyTable,
    io: 'input',
  },
  {
    file: 'data/codes/grades.schema.json',
    title: 'Grade scales',
    schema: gradesTable,
    io: 'input',
  },
  {
    file: 'data/codes/risk-factors.schema.json',
    title: 'Risk factor table',
    schema: riskFactorTable,
    io: 'input',
  },
  {
    file: 'data/codes/stablecoin-scores.schema.json',
    title: 'Stablecoin score points',
    schema: stablecoinScoresTable,
    io: 'input',
  },
  {
    file: 'data/codes/readiness.schema.json',
    title: 'Member-state readiness points',
    schema: readinessTable,
    io: 'input',
  },
  {
    file: 'data/stablecoin-record.schema.json',
    title: 'Stablecoin record (data/stablecoins/<id>.yaml)',
    schema: stablecoinRecord,
    io: 'input',
  },
  {
    file: 'data/venues.schema.json',
    title: 'Trading venues (data/venues.yaml)',
    schema: venuesFile,
    io: 'input',
  },
  {
    file: 'data/fx.schema.json',
    title: 'ECB reference rates (data/fx.yaml)',
    schema: fxFile,
    io: 'input',
  },
  {
    file: 'data/mica-categories.schema.json',
    title: 'MiCA categories (data/mica/categories.yaml)',
    schema: categoriesFile,
    io: 'input',
  },
  {
    file: 'data/member-state.schema.json',
    title: 'Member state (data/mica/member-states/<iso>.yaml)',
    schema: memberStateRecord,
    io: 'input',
  },
  {
    file: 'data/jurisdictions.schema.json',
    title: 'Jurisdictions covered (data/jurisdictions.yaml)',
    schema: jurisdictionsFile,
    io: 'input',
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

export function generateAll(): Map<string, string> {
  return new Map(
    PUBLISHED_SCHEMAS.map((p) => [p.file, `${JSON.stringify(generateJsonSchema(p), null, 2)}\n`]),
  );
}
