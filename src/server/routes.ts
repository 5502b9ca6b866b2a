// The public surface: the API operations under /v1. Anything not listed (and not a static
// file of the built site) is a 404 problem.

export interface Operation {
  path: string;
  operationId: string;
  summary: string;
}

/** The API offers exactly these operations under /v1. */
export const OPERATIONS: readonly Operation[] = [
  {
    path: '/v1/registry/assets',
    operationId: 'listRegistryAssets',
    summary: 'List verified tokenized assets',
  },
  {
    path: '/v1/registry/asset',
    operationId: 'getRegistryAsset',
    summary: 'Full profile of one asset',
  },
  {
    path: '/v1/market/stablecoins',
    operationId: 'getStablecoinMarket',
    summary: 'Stablecoin dominance, MiCA ratings and adoption',
  },
  {
    path: '/v1/compliance/mica-status',
    operationId: 'getMicaStatus',
    summary: 'MiCA indicators and member-state readiness',
  },
  { path: '/v1/system/status', operationId: 'getSystemStatus', summary: 'Live platform status' },
];

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

export function isOperation(path: string): boolean {
  return OPERATIONS.some((o) => o.path === path);
}
