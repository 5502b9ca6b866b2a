// Decides who a request is. Keys are looked up by digest and cached briefly: a fresh entry is
// trusted for `freshMs` (so a revocation bites within seconds); during a database outage an
// older entry keeps a paying client working for up to `staleGraceMs`.
import type { Store, KeyRow } from '../store/store.ts';
import { DEMO_KEY, hashKey, sameHash, wellFormed } from './keys.ts';
import { BoundedMap } from '../lib/bounded-map.ts';

export type Principal =
  | { kind: 'key'; id: string; tier: string; owner: string; displayPrefix: string }
  | { kind: 'demo' };

export type AuthFailure =
  'missing_api_key' | 'invalid_api_key' | 'demo_key_disabled' | 'service_unavailable';
export type AuthResult = { ok: true; principal: Principal } | { ok: false; failure: AuthFailure };

interface Entry {
  row: KeyRow | null;
  fetchedAt: number;
  /** The decision for this row, made once (the row cannot change while the entry lives). */
  decided?: AuthResult;
}

export interface AuthenticatorOptions {
  freshMs: number;
  staleGraceMs: number;
  demoEnabled: boolean;
  maxEntries?: number;
  now?: () => number;
}

/** Digests looked up in one query at most. */
const LOOKUP_BATCH = 128;

interface LookupBatch {
  hashes: string[];
  rows: Promise<Map<string, KeyRow>>;
}

export class Authenticator {
  private readonly cache: BoundedMap<string, Entry>;
  private readonly inflight = new Map<string, Promise<Entry | null>>();
  /**
   * The digest of each key accepted at least once, by key: such a key skips the checksum and
   * SHA-256, and the failed-auth block can tell "a key this service has accepted" from "a new
   * guess" at any time. Kept apart from `cache` (whose entries expire after `freshMs` and can be
   * pushed out by random well-formed keys), and only accepted keys enter it, so a flood of new
   * keys cannot push a paying key out.
   */
  private readonly accepted: BoundedMap<string, string>;
  /** The lookup gathering this turn's digests (see `lookup`). */
  private batch: LookupBatch | null = null;
  /** Whether the last database lookup failed (see `check`). */
  private lookupsFailing = false;
  private readonly now: () => number;

  private readonly store: Store | null;
  private readonly options: AuthenticatorOptions;

  constructor(store: Store | null, options: AuthenticatorOptions) {
    this.store = store;
    this.options = options;
    this.now = options.now ?? Date.now;
    // Bounded: random well-formed keys must not grow memory without limit.
    this.cache = new BoundedMap(options.maxEntries ?? 10_000);
    this.accepted = new BoundedMap(options.maxEntries ?? 10_000);
  }

  /**
   * True when `key` is DEMO_KEY or a key that was accepted before, whatever the cache's age:
   * such a key is not a guess, so the failed-attempts block must not refuse it (a revoked one is
   * still refused by `check`, as any invalid key).
   */
  knownGood(key: string | null): boolean {
    if (key === null) return false;
    if (key === DEMO_KEY) return this.options.demoEnabled;
    return this.accepted.has(key);
  }

  /** Synchronous when the answer is known without the database (the common case). */
  check(key: string | null): AuthResult | Promise<AuthResult> {
    if (key === null) return { ok: false, failure: 'missing_api_key' };
    if (key === DEMO_KEY)
      return this.options.demoEnabled
        ? { ok: true, principal: { kind: 'demo' } }
        : { ok: false, failure: 'demo_key_disabled' };
    let hash = this.accepted.get(key);
    if (hash === undefined) {
      if (!wellFormed(key)) return { ok: false, failure: 'invalid_api_key' };
      hash = hashKey(key);
    }
    const entry = this.cache.get(hash);
    if (entry && this.now() - entry.fetchedAt < this.options.freshMs)
      return this.decide(key, hash, entry);
    // The last lookup failed (the database is down or hung: each lookup then takes up to the
    // query deadline): a stale entry within the grace answers now, and the refresh runs behind
    // it, so no request waits on a database that does not answer.
    if (this.lookupsFailing && entry && this.now() - entry.fetchedAt < this.options.staleGraceMs) {
      void this.refresh(hash);
      return this.decide(key, hash, entry);
    }
    return this.refresh(hash).then((fresh) => {
      if (fresh) return this.decide(key, hash, fresh);
      if (entry && this.now() - entry.fetchedAt < this.options.staleGraceMs)
        return this.decide(key, hash, entry);
      return { ok: false, failure: 'service_unavailable' } as const;
    });
  }

  private decide(key: string, hash: string, entry: Entry): AuthResult {
    if (entry.decided) return entry.decided;
    entry.decided = this.judge(hash, entry.row);
    if (entry.decided.ok) this.accepted.set(key, hash);
    else this.accepted.delete(key); // revoked: a guess again
    return entry.decided;
  }

  private judge(hash: string, row: KeyRow | null): AuthResult {
    // Wrong, unknown and revoked keys get the same answer, so keys cannot be probed.
    if (!row || row.revoked_at !== null || !sameHash(row.key_hash, hash))
      return { ok: false, failure: 'invalid_api_key' };
    return {
      ok: true,
      principal: {
        kind: 'key',
        id: row.id,
        tier: row.tier,
        owner: row.owner,
        displayPrefix: row.display_prefix,
      },
    };
  }

  /** One database lookup per digest at a time; null when the database cannot answer. */
  private refresh(hash: string): Promise<Entry | null> {
    const pending = this.inflight.get(hash);
    if (pending) return pending;
    const lookup = (async () => {
      if (!this.store) return null;
      try {
        const entry = { row: await this.lookup(hash), fetchedAt: this.now() };
        this.lookupsFailing = false;
        this.remember(hash, entry);
        return entry;
      } catch {
        this.lookupsFailing = true;
        return null;
      } finally {
        this.inflight.delete(hash);
      }
    })();
    this.inflight.set(hash, lookup);
    return lookup;
  }

  /**
   * The row of one digest, looked up with every other digest asked for in the same turn of the
   * event loop, in one query: a flood of new keys costs one database round trip per turn (and
   * per LOOKUP_BATCH digests), not one each.
   */
  private lookup(hash: string): Promise<KeyRow | null> {
    let batch = this.batch;
    if (!batch || batch.hashes.length >= LOOKUP_BATCH) {
      const hashes: string[] = [];
      const rows = new Promise<void>((r) => setImmediate(r)).then(async () => {
        if (this.batch?.hashes === hashes) this.batch = null;
        const found = await this.store!.keysByHashes(hashes);
        return new Map(found.map((row) => [row.key_hash, row]));
      });
      this.batch = batch = { hashes, rows };
    }
    batch.hashes.push(hash);
    return batch.rows.then((rows) => rows.get(hash) ?? null);
  }

  private remember(hash: string, entry: Entry) {
    // Re-inserted, so the least recently refreshed entries go first.
    this.cache.delete(hash);
    this.cache.set(hash, entry);
  }
}
