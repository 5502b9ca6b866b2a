// The rule `mica-categories-complete` (npm run data:check).

import { CATEGORY_ORDER } from './shared.ts';
import { micaRule } from './rule.ts';

export const categoriesComplete = micaRule('mica-categories-complete', ({ mica }, report) => {
  const cats = mica.categories;
  if (!cats) return;
  const codes = cats.record.categories.map((c) => c.code);
  if (codes.join() !== CATEGORY_ORDER.join()) {
    report(
      cats.file,
      ['categories'],
      `lists ${codes.join(', ')}`,
      `list each of ${CATEGORY_ORDER.join(', ')} once, in that order`,
    );
  }
  cats.record.categories.forEach((c, i) => {
    const ids = new Set(c.sources.map((s) => s.id));
    if (!ids.has(c.authorised_entities.source)) {
      report(
        cats.file,
        ['categories', i, 'authorised_entities', 'source'],
        `names "${c.authorised_entities.source}", which is not a source of this category`,
        `use one of: ${[...ids].join(', ')}`,
      );
    }
  });
});
