// A Map that holds at most `max` entries: adding a new key to a full map drops the oldest one
// (first inserted). Every in-memory cache of the service is one, so that no request pattern —
// random URLs, random well-formed keys — can grow memory without limit. A caller that wants
// least-recently-used order re-inserts an entry when it uses it (delete, then set).
export class BoundedMap<K, V> extends Map<K, V> {
  readonly max: number;

  constructor(max: number) {
    super();
    this.max = max;
  }

  override set(key: K, value: V): this {
    if (this.size >= this.max && !this.has(key)) this.delete(this.keys().next().value!);
    return super.set(key, value);
  }
}
