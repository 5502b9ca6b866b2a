// Timing-safe comparison of secrets (tokens, key digests): the time taken does not reveal how
// much of a guess was right. Lengths may differ (that much is not secret).
import { timingSafeEqual } from 'node:crypto';

/** True when `a` and `b` are the same bytes (strings as UTF-8, or hex with `encoding`). */
export function safeEqual(
  a: string | undefined | null,
  b: string,
  encoding: BufferEncoding = 'utf8',
): boolean {
  if (typeof a !== 'string') return false;
  const x = Buffer.from(a, encoding);
  const y = Buffer.from(b, encoding);
  return x.length === y.length && timingSafeEqual(x, y);
}
