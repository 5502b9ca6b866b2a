// The docs by reader (README.md, docs/, CONTRIBUTING.md, ARCHITECTURE.md): every relative link
// between the pages names a file that exists, and a heading that exists when it names one; and a
// newcomer reaches every docs page from the README in at most two links.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT_PAGES = ['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', 'CHANGELOG.md'];
const DOCS = readdirSync('docs')
  .filter((f) => f.endsWith('.md'))
  .map((f) => path.join('docs', f));
const PAGES = [...ROOT_PAGES, ...DOCS];

/** Markdown links [text](target) outside code spans and fenced blocks. */
function links(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

const isRelative = (target: string) => !/^(?:[a-z]+:|\/|#)/i.test(target);

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(file: string): Set<string> {
  const headings = readFileSync(file, 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .split('\n')
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) =>
      l
        .replace(/^#+ /, '')
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    );
  return new Set(headings);
}

describe('the docs by reader', () => {
  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const target of links(page).filter(isRelative)) {
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const resolved = path.normalize(path.join(path.dirname(page), file));
        if (!existsSync(resolved)) broken.push(`${page} → ${target} (no such file)`);
        else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor))
          broken.push(`${page} → ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('reach every docs page from the README in at most two links', () => {
    const reached = new Map<string, number>([['README.md', 0]]);
    let frontier = ['README.md'];
    for (let depth = 1; depth <= 2; depth++) {
      const next: string[] = [];
      for (const page of frontier)
        for (const target of links(page).filter(isRelative)) {
          const resolved = path.normalize(path.join(path.dirname(page), target.split('#')[0]!));
          if (resolved.endsWith('.md') && !reached.has(resolved) && existsSync(resolved)) {
            reached.set(resolved, depth);
            next.push(resolved);
          }
        }
      frontier = next;
    }
    expect(DOCS.filter((d) => !reached.has(d))).toEqual([]);
  });
});
