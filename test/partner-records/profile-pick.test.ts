import { describe, expect, it } from 'vitest';
import { pickProfile } from '../../src/partner-records/profile-pick.js';
import { defaultProfile, IMPORT_PROFILE, type ImportProfile } from '../../src/partner-records/index.js';

const named = (name: string, fields: Partial<ImportProfile>): ImportProfile =>
  IMPORT_PROFILE.parse({ ...defaultProfile('UTC'), name, note: undefined, ...fields });

/** A bank's statement: two title lines, semicolons, debit and credit. */
const TMB = named('TMB', {
  delimiter: ';',
  skipAbove: 2,
  reference: 'Référence',
  date: { column: 'Date', format: 'DD/MM/YYYY' },
  amount: { layout: 'debit_credit', debit: 'Débit', credit: 'Crédit' },
  currency: { fixed: 'USD' },
});
/** A provider's export whose header TMB's statement also holds, saved earlier. */
const OLDER = named('Older', {
  delimiter: ';',
  skipAbove: 2,
  reference: 'Référence',
  date: { column: 'Date', format: 'DD/MM/YYYY' },
  currency: { fixed: 'USD' },
});
/** Columns by position, without a header row. */
const POSITIONAL = named('Positional', {
  header: false,
  reference: 1,
  date: { column: 2, format: 'YYYY-MM-DD' },
  amount: { layout: 'signed', amount: 3 },
  currency: { column: 4 },
});
const STATEMENT = ['Relevé TMB', 'Compte 001;;', 'Date;Référence;Libellé;Débit;Crédit', '02/11/2026;VIR-1;Paie;;10,00'].join('\n');

describe('picking the profile that reads a file', () => {
  it('takes the profile named, whatever its case, even when the header fits another', () => {
    const pick = pickProfile(STATEMENT, [OLDER, TMB], { name: 'tmb', timeZone: 'UTC' });
    expect(pick).toMatchObject({ ok: true, by: 'name', profile: { name: 'TMB' } });
  });

  it('answers an unknown name with the saved names', () => {
    expect(pickProfile(STATEMENT, [TMB, POSITIONAL], { name: 'equity', timeZone: 'UTC' })).toEqual({
      ok: false,
      unknown: 'equity',
      names: ['TMB', 'Positional'],
    });
  });

  it('takes the first saved profile whose header row, after its lines to skip, holds every column it names', () => {
    // OLDER names `amount`, `direction` and `currency` columns the statement lacks: TMB fits, though listed after it.
    expect(pickProfile(STATEMENT, [OLDER, TMB], { timeZone: 'UTC' })).toMatchObject({ ok: true, by: 'header', profile: { name: 'TMB' } });
    // Read without its two title lines, the statement's header is not found.
    expect(pickProfile(STATEMENT, [{ ...TMB, skipAbove: 0 }], { timeZone: 'UTC' })).toMatchObject({ by: 'default' });
    // Read with commas, the header is one cell.
    expect(pickProfile(STATEMENT, [{ ...TMB, delimiter: ',' }], { timeZone: 'UTC' })).toMatchObject({ by: 'default' });
  });

  it('reads the header in the profile’s encoding', () => {
    const bytes = Uint8Array.from([...STATEMENT].map((char) => char.charCodeAt(0)));
    expect(pickProfile(bytes, [{ ...TMB, encoding: 'windows-1252' }], { timeZone: 'UTC' })).toMatchObject({ by: 'header' });
    // Latin-1 bytes are not UTF-8: the header is not read.
    expect(pickProfile(bytes, [TMB], { timeZone: 'UTC' })).toMatchObject({ by: 'default' });
  });

  it('falls back to the built-in profile in LEDGER_TIMEZONE', () => {
    const pick = pickProfile('reference,date,amount,currency\nA,2026-11-02,1,USD\n', [TMB], { timeZone: 'Africa/Kinshasa' });
    expect(pick).toEqual({ ok: true, by: 'default', profile: defaultProfile('Africa/Kinshasa') });
  });

  it('never picks a profile by position from the file, only by its name', () => {
    const file = 'A,2026-11-02,1,USD\n';
    expect(pickProfile(file, [POSITIONAL], { timeZone: 'UTC' })).toMatchObject({ by: 'default' });
    expect(pickProfile(file, [POSITIONAL], { name: 'positional', timeZone: 'UTC' })).toMatchObject({ by: 'name', profile: { name: 'Positional' } });
  });
});
