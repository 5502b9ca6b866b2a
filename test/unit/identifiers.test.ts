import { describe, expect, it } from 'vitest';
import {
  isValidIsin,
  isValidLei,
  isinCheckDigit,
  leiCheckDigits,
  normaliseTfin,
  parseTfin,
} from '../../src/domain/identifiers.ts';

describe('ISIN (ISO 6166)', () => {
  it('accepts published ISINs', () => {
    // Apple Inc. and Microsoft Corp. common stock, as published by their issuers.
    expect(isValidIsin('US0378331005')).toBe(true);
    expect(isValidIsin('US5949181045')).toBe(true);
  });
  it('computes the check digit over letters expanded to numbers', () => {
    expect(isinCheckDigit('US037833100')).toBe(5);
    expect(isinCheckDigit('DE000A1EWWW')).toBe(0);
  });
  it('rejects a wrong check digit, a wrong length and lower case', () => {
    expect(isValidIsin('US0378331006')).toBe(false);
    expect(isValidIsin('US037833100')).toBe(false);
    expect(isValidIsin('us0378331005')).toBe(false);
  });
});

describe('LEI (ISO 17442)', () => {
  it('accepts published LEIs', () => {
    expect(isValidLei('506700GE1G29325QX363')).toBe(true); // GLEIF
    expect(isValidLei('5493006YXS1U5GIHE750')).toBe(true); // European Investment Bank
  });
  it('computes check digits with ISO 7064 MOD 97-10', () => {
    expect(leiCheckDigits('506700GE1G29325QX3')).toBe('63');
  });
  it('rejects transposed characters and bad shapes', () => {
    expect(isValidLei('506700GE1G29325QX336')).toBe(false);
    expect(isValidLei('506700GE1G29325QX36')).toBe(false);
    expect(isValidLei('506700ge1g29325qx363')).toBe(false);
  });
});

describe('TFIN', () => {
  it('parses the four parts', () => {
    expect(parseTfin('TFIN-DEBT-ETH-2026-0001')).toEqual({
      assetClass: 'DEBT',
      ledger: 'ETH',
      year: 2026,
      sequence: 1,
    });
  });
  it('rejects other shapes', () => {
    for (const bad of [
      'TFIN-DEB-ETH-2026-0001',
      'TFIN-DEBT-ETH-26-0001',
      'tfin-debt-eth-2026-0001',
      'TFIN-DEBT-ETH-2026-00001',
      ' TFIN-DEBT-ETH-2026-0001',
    ]) {
      expect(parseTfin(bad), bad).toBeNull();
    }
  });
  it('normalises case and surrounding space for lookups', () => {
    expect(normaliseTfin('  tfin-debt-eth-2026-0001 ')).toBe('TFIN-DEBT-ETH-2026-0001');
  });
});
