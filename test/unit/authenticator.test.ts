import { describe, expect, it } from 'vitest';
import { Authenticator } from '../../src/access/authenticator.ts';
import { generateKey } from '../../src/access/keys.ts';
import type { KeyRow, Store } from '../../src/store/store.ts';

function fakeStore(rows: KeyRow[]) {
  const state = { down: false, lookups: 0, digests: 0 };
  const store = {
    async keysByHashes(hashes: string[]) {
      state.lookups++;
      state.digests += hashes.length;
      if (state.down) throw new Error('database down');
      return rows.filter((r) => hashes.includes(r.key_hash));
    },
  } as unknown as Store;
  return { store, state };
}

describe('authenticator', () => {
  const k = generateKey();
  const row: KeyRow = {
    id: 'k1',
    key_hash: k.hash,
    display_prefix: k.displayPrefix,
    tier: 'institutional',
    owner: 'Bank',
    created_at: 0,
    revoked_at: null,
  };

  it('answers missing, demo, malformed and unknown keys, and never looks up a malformed one', async () => {
    const { store, state } = fakeStore([row]);
    const auth = new Authenticator(store, {
      freshMs: 5000,
      staleGraceMs: 60_000,
      demoEnabled: true,
    });
    expect(await auth.check(null)).toEqual({ ok: false, failure: 'missing_api_key' });
    expect(await auth.check('DEMO_KEY')).toEqual({ ok: true, principal: { kind: 'demo' } });
    // A typo in the last character (one that differs from it, so the checksum always fails).
    const typo = k.key.endsWith('x') ? 'y' : 'x';
    expect(await auth.check(`${k.key.slice(0, -1)}${typo}`)).toEqual({
      ok: false,
      failure: 'invalid_api_key',
    });
    expect(state.lookups).toBe(0);
    expect(await auth.check(generateKey().key)).toEqual({ ok: false, failure: 'invalid_api_key' });
    expect(await auth.check(k.key)).toMatchObject({
      ok: true,
      principal: { kind: 'key', id: 'k1', tier: 'institutional' },
    });
    const disabled = new Authenticator(store, {
      freshMs: 5000,
      staleGraceMs: 60_000,
      demoEnabled: false,
    });
    expect(await disabled.check('DEMO_KEY')).toEqual({ ok: false, failure: 'demo_key_disabled' });
  });

  it('serves a cached key synchronously, sees a revocation after the fresh period, and rides out an outage', async () => {
    let now = 1_000_000;
    const rows = [{ ...row }];
    const { store, state } = fakeStore(rows);
    const auth = new Authenticator(store, {
      freshMs: 5000,
      staleGraceMs: 60_000,
      demoEnabled: true,
      now: () => now,
    });
    expect(await auth.check(k.key)).toMatchObject({ ok: true });
    const cached = auth.check(k.key);
    expect(cached).not.toBeInstanceOf(Promise);
    // The database goes away: the stale entry keeps the paying client working within the grace period.
    state.down = true;
    now += 10_000;
    expect(await auth.check(k.key)).toMatchObject({ ok: true });
    now += 60_000;
    expect(await auth.check(k.key)).toEqual({ ok: false, failure: 'service_unavailable' });
    // Back up, and revoked: refused once the fresh period has passed.
    state.down = false;
    rows[0]!.revoked_at = now;
    now += 5001;
    expect(await auth.check(k.key)).toEqual({ ok: false, failure: 'invalid_api_key' });
  });

  it('knows a key it accepted after a flood of new keys has pushed its digest out', async () => {
    const { store } = fakeStore([row]);
    const auth = new Authenticator(store, {
      freshMs: 5000,
      staleGraceMs: 0,
      demoEnabled: true,
      maxEntries: 100,
    });
    expect(auth.knownGood(k.key)).toBe(false);
    expect(await auth.check(k.key)).toMatchObject({ ok: true });
    expect(auth.knownGood(k.key)).toBe(true);
    await Promise.all(Array.from({ length: 200 }, () => auth.check(generateKey().key)));
    expect(auth.knownGood(k.key)).toBe(true);
    expect(auth.knownGood(generateKey().key)).toBe(false);
  });

  it('looks up the new keys of one turn in one query, and each gets its own answer', async () => {
    const { store, state } = fakeStore([row]);
    const auth = new Authenticator(store, { freshMs: 5000, staleGraceMs: 0, demoEnabled: true });
    const unknown = Array.from({ length: 300 }, () => generateKey().key);
    const answers = await Promise.all([...unknown, k.key].map((key) => auth.check(key)));
    // 301 digests in batches of at most 128: three queries, not 301.
    expect(state.lookups).toBe(3);
    expect(state.digests).toBe(301);
    expect(answers.slice(0, -1).every((a) => !a.ok && a.failure === 'invalid_api_key')).toBe(true);
    expect(answers.at(-1)).toMatchObject({ ok: true, principal: { id: 'k1' } });
    // A failed query fails every lookup of its batch, and the next turn asks again.
    state.down = true;
    const failed = await Promise.all(
      [generateKey().key, generateKey().key].map((key) => auth.check(key)),
    );
    expect(failed).toEqual([
      { ok: false, failure: 'service_unavailable' },
      { ok: false, failure: 'service_unavailable' },
    ]);
    expect(state.lookups).toBe(4);
  });
});
