// The ledger reads of one refresh, kept for the importers that run after the one that made them:
// `onchain` pins each ledger at a block and reads every coin deployment's decimals and
// totalSupply there; `coin-supply`, run next, sums the issued ones at the same block from those
// reads instead of reading each contract's totalSupply again. Only reads that answered are kept:
// a contract that failed is read again. Nothing outlives the run (the refresh makes one per run).
// Generic in what a pinned ledger and a read are, so that it lives here without knowing the
// onchain importer's types (importers reach each other only through shared/).
const key = (address: string) => address.toLowerCase();

export class LedgerReads<
  PinnedLedger extends { ledger: string } = { ledger: string },
  TokenFacts extends object = object,
> {
  private readonly ledgers = new Map<
    string,
    { pinned: PinnedLedger; coins: Map<string, TokenFacts> }
  >();

  /** Keeps a ledger's pinned block and the coin contracts read at it that answered. */
  keep(pinned: PinnedLedger, coins: readonly { address: string; facts: TokenFacts }[]): void {
    this.ledgers.set(pinned.ledger, {
      pinned,
      coins: new Map(coins.map((c) => [key(c.address), c.facts])),
    });
  }

  /** The block the ledger was pinned at earlier in the run, if it was. */
  pinned(ledger: string): PinnedLedger | undefined {
    return this.ledgers.get(ledger)?.pinned;
  }

  /** A coin contract's decimals and totalSupply read at that block, if they were. */
  coin(ledger: string, address: string): TokenFacts | undefined {
    return this.ledgers.get(ledger)?.coins.get(key(address));
  }
}
