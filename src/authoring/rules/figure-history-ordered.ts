// The rule `figure-history-ordered` (npm run data:check).

import { figureCheck } from './rule.ts';

export const figureHistoryOrdered = figureCheck(
  'figure-history-ordered',
  (figure, _ctx, report) => {
    let newer = figure.as_of;
    figure.history.forEach((point, i) => {
      if (point.as_of >= newer)
        report(
          ['history', i, 'as_of'],
          `${point.as_of} is not older than the value before it (${newer})`,
          'history lists previous values newest first, each older than the one above it',
        );
      newer = point.as_of < newer ? point.as_of : newer;
    });
  },
);
