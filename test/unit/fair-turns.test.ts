// Computed answers take turns by caller (src/server/fair-turns.ts, issue 37 item 4): a caller with
// many waiting answers delays another by one of them at most; a full caller's answer is made at
// once; the event loop reads sockets between turns.
import { describe, expect, it } from 'vitest';
import { fairTurns } from '../../src/server/fair-turns.ts';

const drained = (turns: { waiting: number }) =>
  new Promise<void>((resolve) => {
    const check = () => (turns.waiting === 0 ? setImmediate(resolve) : setImmediate(check));
    check();
  });

describe('fair turns', () => {
  it('serves callers in rotation, one answer a turn', async () => {
    const turns = fairTurns(64);
    const order: string[] = [];
    for (let i = 0; i < 5; i++) turns.take('hostile', () => order.push(`h${i}`));
    turns.take('client', () => order.push('c0'));
    turns.take('client', () => order.push('c1'));
    expect(turns.waiting).toBe(7);
    expect(order).toEqual([]); // nothing runs before its turn
    await drained(turns);
    expect(order).toEqual(['h0', 'c0', 'h1', 'c1', 'h2', 'h3', 'h4']);
  });

  it('lets the event loop run between two turns', async () => {
    const turns = fairTurns(64);
    const order: string[] = [];
    turns.take('a', () => {
      order.push('a0');
      // Arrives while a0 runs: read before the next turn, as a socket's data would be.
      setImmediate(() => order.push('io'));
    });
    turns.take('a', () => order.push('a1'));
    await drained(turns);
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['a0', 'io', 'a1']);
  });

  it('makes a full caller’s answer at once and holds no more than its bound', async () => {
    const turns = fairTurns(2);
    const order: string[] = [];
    turns.take('a', () => order.push('a0'));
    turns.take('a', () => order.push('a1'));
    turns.take('a', () => order.push('a2 at once'));
    expect(order).toEqual(['a2 at once']);
    expect(turns.waiting).toBe(2);
    await drained(turns);
    expect(order).toEqual(['a2 at once', 'a0', 'a1']);
  });

  it('keeps turning after an answer that throws', async () => {
    const turns = fairTurns(8);
    const order: string[] = [];
    const errors: unknown[] = [];
    process.once('uncaughtException', (e) => errors.push(e));
    turns.take('a', () => {
      throw new Error('boom');
    });
    turns.take('b', () => order.push('b0'));
    await drained(turns);
    expect(order).toEqual(['b0']);
    expect(errors).toHaveLength(1);
  });
});

describe('which computed answers take turns', () => {
  it('every operation but the live status', async () => {
    const { takesTurn } = await import('../../src/server/answers/operation.ts');
    expect(takesTurn('/v1/system/status')).toBe(false);
    expect(takesTurn('/v1/registry/assets')).toBe(true);
    expect(takesTurn('/v1/registry/asset')).toBe(true);
    expect(takesTurn('/v1/market/stablecoins')).toBe(true);
  });
});
