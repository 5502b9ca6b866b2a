// q= bounds (issue #37): more than MAX_SEARCH_WORDS words is refused by the parameter check with
// a clear message, and a one-letter word matches only itself (never the beginning of every word).
import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_WORDS, searchIndex, searchTextProblem } from '../../src/api/search.ts';
import { readParams, type ParamSpec } from '../../src/api/params.ts';

describe('q= bounds', () => {
  it('refuses more words than are searched together, with a 400 problem naming the limit', () => {
    expect(searchTextProblem('us treasury fund')).toBeNull();
    expect(searchTextProblem(Array(MAX_SEARCH_WORDS).fill('ab').join(' '))).toBeNull();
    const spec: ParamSpec = {
      name: 'q',
      description: '',
      maxLength: 100,
      check: searchTextProblem,
    };
    const hostile = Array(49).fill('a').join(' ');
    const read = readParams(new URLSearchParams({ q: hostile }), [spec]);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problem.code).toBe('invalid_parameter');
    expect(read.problem.detail).toBe(
      `"q" has 49 words; at most ${MAX_SEARCH_WORDS} are searched together (every word must match), so leave some out.`,
    );
    // Punctuation separates words as the index cuts them.
    expect(searchTextProblem('a,b,c,d,e,f,g,h,i')).toMatch(/^has 9 words/);
  });

  it('matches a one-letter word as itself unless it is the last, a longer one also as a beginning', () => {
    const records = ['Alpha fund', 'A share class', 'Beta', 'Bond I', 'Bond Index'];
    const index = searchIndex(records, {
      fields: { name: { text: (r) => r, boost: 1 } },
      whole: () => [],
    });
    const found = (q: string) => index.search(q).map(Number);
    // The last word is being typed: a beginning ("i" finds "Index" too).
    expect(found('bond i').sort()).toEqual([3, 4]);
    expect(found('a').sort()).toEqual([0, 1]);
    // Before the last, a one-letter word is itself only.
    expect(found('i bond')).toEqual([3]);
    expect(found('a share')).toEqual([1]);
    expect(found('al')).toEqual([0]);
    expect(found('be')).toEqual([2]);
  });
});
