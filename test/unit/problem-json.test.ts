import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { problemBody } from '../../src/domain/errors.ts';
import { problemJson } from '../../src/representation/representation.ts';

const plain = (...a: Parameters<typeof problemJson>) =>
  JSON.stringify(problemBody(a[0], a[1], `urn:uuid:${a[2]}`, a[3]));

describe('problem bodies joined from their halves', () => {
  it('are the bytes JSON.stringify makes, request after request', () => {
    for (const detail of [
      'Send your key.',
      'A "quoted" détail\\ with \n a break',
      'retry in 57 s.',
    ])
      for (let i = 0; i < 3; i++) {
        const id = randomUUID();
        expect(problemJson('missing_api_key', detail, id)).toBe(
          plain('missing_api_key', detail, id),
        );
      }
  });

  it('serialise a request id that is not a UUID, and extensions, as they are', () => {
    const odd = 'not"a-uuid';
    expect(JSON.parse(problemJson('missing_api_key', 'x', odd)).instance).toBe(`urn:uuid:${odd}`);
    const id = randomUUID();
    expect(problemJson('invalid_parameter', 'x', id, { found: 'q' })).toBe(
      plain('invalid_parameter', 'x', id, { found: 'q' }),
    );
  });
});
