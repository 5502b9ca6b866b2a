// The edge's counters (edge-auth.ts, edge-charges.ts; /metrics in operator-metrics.ts): how many
// decisions the edge asked this instance for (and how many it may reuse), and the requests it
// answered from a reused decision and shipped here to be charged (or lines refused: not the
// edge's).
export const edgeCounts = { decisions: 0, reusable: 0, charged: 0, rejected: 0 };
