// The importers `npm run data:import -- <source>` knows. Each lives in its own folder.
import type { Importer } from './shared/importer.ts';

export const importers: Record<string, () => Promise<Importer>> = {
  esma: () => import('./esma/index.ts').then((m) => m.esmaImporter),
  onchain: async () => (await import('./onchain/index.ts')).onchainImporter,
  'coin-supply': async () => (await import('./onchain/coin-supply.ts')).coinSupplyImporter,
  stablecoins: async () => (await import('./stablecoins/index.ts')).stablecoinsImporter,
  gleif: async () => (await import('./gleif/index.ts')).gleifImporter,
  coins: async () => (await import('./coins/index.ts')).coinsImporter,
  'coin-figures': async () => (await import('./coin-figures/index.ts')).coinFiguresImporter,
  'ecb-fx': async () => (await import('./ecb-fx/index.ts')).ecbFxImporter,
  'defillama-adapters': async () =>
    (await import('./defillama-adapters/index.ts')).defillamaAdaptersImporter,
  identifiers: async () => (await import('./identifiers/index.ts')).identifiersImporter,
  'rwa-sheet': async () => (await import('./rwa-sheet/index.ts')).rwaSheetImporter,
  'issuer-records': async () => (await import('./issuer-records/index.ts')).issuerRecordsImporter,
  levels: async () => (await import('./levels/index.ts')).levelsImporter,
};
