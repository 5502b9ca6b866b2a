// The edge's counters (edge-auth.ts, edge-charges.ts; /metrics in operator-metrics.ts): how many
// decisions the edge asked this instance for (and how many it may reuse), and the requests it
// answered from a reused decision and wrote to this instance's charge log: charged, lost (a line
// that is not a charge: torn or foreign, logged with its text), not counted against the quota
// (the quota backend failed; still billed), and the bytes written but not read yet. What the edge
// sent is charged + lost + pending: nothing leaves the count unseen.
export const edgeCounts = {
  decisions: 0,
  reusable: 0,
  charged: 0,
  lost: 0,
  unquota: 0,
  pendingBytes: 0,
  /** Decisions not marked reusable because the charge reader was behind. */
  heldBack: 0,
};
