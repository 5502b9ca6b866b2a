// Polls a reading until it holds, for tests that wait on another process (an edge's charge log,
// a key cache): 100 ms apart, failing with the last reading so a slow machine's miss says what it saw.
export async function until<T>(
  read: () => Promise<T>,
  done: (v: T) => boolean,
  what: string,
  tries = 150,
): Promise<T> {
  let v = await read();
  for (let i = 0; i < tries && !done(v); i++) {
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  if (!done(v)) throw new Error(`${what}: still ${JSON.stringify(v)}`);
  return v;
}
