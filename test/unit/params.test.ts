// A value outside a closed list: a short list is spelled out in the problem; a long one (the
// ledger codes) is named, with the closest value, as /openapi.json carries it in full.
import { describe, expect, it } from 'vitest';
import { readParams, type ParamSpec } from '../../src/api/params.ts';

const detail = (query: string, spec: ParamSpec) => {
  const result = readParams(new URLSearchParams(query), [spec]);
  return result.ok ? null : result.problem.detail;
};

describe('a value outside a closed list', () => {
  it('lists a short list', () => {
    const spec = { name: 'status', description: 'd', values: ['active', 'matured'] };
    expect(detail('status=x', spec)).toBe('"status" must be one of: active, matured.');
  });

  it('names a long list and the closest value', () => {
    const codes = Array.from({ length: 50 }, (_, i) => `C${String(i).padStart(2, '0')}`);
    const spec = { name: 'ledger', description: 'd', values: [...codes, 'ETH'] };
    expect(detail('ledger=ETX', spec)).toBe(
      `"ledger" must be one of the 51 values of the parameter's enum in /openapi.json (closest: ETH).`,
    );
    expect(detail('ledger=ETH', spec)).toBeNull();
  });
});
