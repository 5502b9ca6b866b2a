// The date the real data describes (data/release.yaml's dataset_date): tests that load the real
// data check it as of that date, so a record read after an earlier fixed date is not "in the future".
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const RELEASE_DATE = /dataset_date: "?([\d-]{10})/.exec(
  readFileSync(path.resolve(import.meta.dirname, '../../data/release.yaml'), 'utf8'),
)![1]!;
