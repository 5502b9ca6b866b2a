// The importers `npm run data:import -- <source>` knows. Each lives in its own folder.
import type { Importer } from './shared/importer.ts';

export const importers: Record<string, () => Promise<Importer>> = {};
