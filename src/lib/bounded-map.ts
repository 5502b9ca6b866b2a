// A Map that holds at most `max` entries: adding a new key to a full map drops the oldest ones
// (first inserted). Every in-memory cache of the service is one, so that no request pattern —
// random URLs, random well-formed keys — can grow memory without limit. A caller that wants
// least-recently-used order re-inserts an entry when it uses it (delete, then set).
//
// At the bound it drops the oldest eighth at once, not one entry per insert: V8 leaves a deleted
// entry as a hole until the table is rebuilt, and finding the oldest entry walks the holes left
// before it, so dropping one at a time cost 55 µs an insert at 100,000 entries (9 µs at 10,000),
// paid by every new address or key of a flood. A batch walks them once.
export class BoundedMap<K, V> extends Map<K, V> {
  readonly max: number;

  constructor(max: number) {
    super();
    this.max = max;
  }

  override set(key: K, value: V): this {
    if (this.size >= this.max && !this.has(key)) this.dropOldest(Math.ceil(this.max / 8));
    return super.set(key, value);
  }

  private dropOldest(count: number): void {
    let left = count;
    for (const key of this.keys()) {
      this.delete(key);
      if (--left === 0) return;
    }
  }
}
