// The closest word to a misspelt one (Levenshtein distance): editor messages at build time and
// TFIN suggestions at request time both use it.
export function closest(word: string, candidates: readonly string[]): string | null {
  // A value cut short ("at_maturity" for "at_maturity_only") is as good a hint as a typo.
  const extended = candidates.filter((c) => c.startsWith(word) && word.length >= 4);
  if (extended.length === 1) return extended[0]!;
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}

export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
