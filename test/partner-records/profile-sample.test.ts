import { describe, expect, it } from 'vitest';
import { dateFormatsReading, SAMPLE_BYTES, sampleOf, type SampleLayout } from '../../src/partner-records/profile-sample.js';

/** Windows-1252 bytes: Latin-1 characters as themselves, the euro sign as 0x80. */
const windows1252 = (text: string) => Uint8Array.from([...text].map((char) => (char === '€' ? 0x80 : char.charCodeAt(0))));
const utf8 = (text: string) => new TextEncoder().encode(text);

const STATEMENT = [
  'Relevé de compte courant;;;;',
  'Compte 00123-4567890 EUR;Période du 01/11/2026 au 30/11/2026;;;',
  '',
  'Date;Référence;Libellé;Débit;Crédit',
  '02/11/2026;VIR-881;Paiement chauffeurs;;1.250,50',
  '03/11/2026;FRAIS-12;Frais de tenue 5€;12,00;',
  '04/11/2026;VIR-882;Retour de fonds;0,00;75,25',
  'Total;;;12,00;1.325,75',
].join('\r\n');

const SEMICOLONS_1252: SampleLayout = { encoding: 'windows-1252', delimiter: ';', skipAbove: 2, header: true };

describe('the sample of an uploaded records file', () => {
  it('reads a semicolon Windows-1252 statement below its title lines: the header as columns, the first rows split', () => {
    const sample = sampleOf(windows1252(STATEMENT), SEMICOLONS_1252);
    expect(sample).toEqual({
      columns: ['Date', 'Référence', 'Libellé', 'Débit', 'Crédit'],
      named: true,
      firstLines: STATEMENT.split('\r\n'),
      firstRows: [
        ['02/11/2026', 'VIR-881', 'Paiement chauffeurs', '', '1.250,50'],
        ['03/11/2026', 'FRAIS-12', 'Frais de tenue 5€', '12,00', ''],
        ['04/11/2026', 'VIR-882', 'Retour de fonds', '0,00', '75,25'],
        ['Total', '', '', '12,00', '1.325,75'],
      ],
    });
  });

  it('names the columns by position without a header row, as wide as the widest row', () => {
    const sample = sampleOf(utf8('02/11/2026,VIR-881,-12.50\n03/11/2026,VIR-882,40.00,late\n'), {
      encoding: 'utf-8',
      delimiter: ',',
      skipAbove: 0,
      header: false,
    });
    expect(sample).toMatchObject({ columns: ['1', '2', '3', '4'], named: false });
    expect('firstRows' in sample && sample.firstRows).toHaveLength(2);
  });

  it('shows the title lines with the wrong separator too, as one column, so the person sees what to change', () => {
    const sample = sampleOf(windows1252(STATEMENT), { ...SEMICOLONS_1252, delimiter: ',' });
    expect(sample).toMatchObject({ columns: ['Date;Référence;Libellé;Débit;Crédit'], named: true });
  });

  it('leaves no column when more lines are skipped than the file has records', () => {
    expect(sampleOf(windows1252(STATEMENT), { ...SEMICOLONS_1252, skipAbove: 40 })).toMatchObject({ columns: [], firstRows: [] });
  });

  it('says the encoding is wrong for a Windows-1252 file read as UTF-8, and for UTF-16 without its mark', () => {
    expect(sampleOf(windows1252(STATEMENT), { ...SEMICOLONS_1252, encoding: 'utf-8' })).toEqual({ problem: 'file_encoding' });
    expect(sampleOf(Uint8Array.from(Buffer.from('a;b\n1;2', 'utf16le')), { ...SEMICOLONS_1252, encoding: 'utf-16' })).toEqual({ problem: 'file_encoding' });
  });

  it('says an empty file is empty, and a quote never closed unreadable', () => {
    expect(sampleOf(utf8('\uFEFF \r\n\r\n'), { ...SEMICOLONS_1252, encoding: 'utf-8' })).toEqual({ problem: 'file_empty' });
    expect(sampleOf(utf8('a;b\n"1;2\n3;4'), { ...SEMICOLONS_1252, encoding: 'utf-8', skipAbove: 0 })).toEqual({ problem: 'file_unreadable' });
  });

  it('reads only the start of a large file, cut inside an accented character, without a complaint', () => {
    const head = ['Réf;Libellé;Montant', ...Array.from({ length: 2500 }, (_, index) => `${index};Libellé ${index};1,00`)].join('\n') + '\n';
    const opening = '9999;"Note\n';
    const before = utf8(head + opening).byteLength;
    expect(before).toBeLessThan(SAMPLE_BYTES - 100);
    // The é's two bytes straddle the cut.
    const file = utf8(`${head}${opening}${'x'.repeat(SAMPLE_BYTES - 1 - before)}é fin";1,00\n${'1;a;2,00\n'.repeat(5000)}`);
    expect(file[SAMPLE_BYTES - 1]).toBe(0xc3);
    const sample = sampleOf(file, { encoding: 'utf-8', delimiter: ';', skipAbove: 0, header: true });
    expect(sample).toMatchObject({ columns: ['Réf', 'Libellé', 'Montant'], named: true });
    expect('firstRows' in sample && sample.firstRows[0]).toEqual(['0', 'Libellé 0', '1,00']);
    expect('firstLines' in sample && sample.firstLines).toHaveLength(8);
  });

  it('keeps the rows before a quoted cell that runs past the start read: the rest of the file may close it', () => {
    const file = utf8(`Réf;Note;Montant\n1;court;2,00\n2;"${'long\n'.repeat(SAMPLE_BYTES / 4)}";3,00\n`);
    expect(sampleOf(file, { encoding: 'utf-8', delimiter: ';', skipAbove: 0, header: true })).toMatchObject({
      columns: ['Réf', 'Note', 'Montant'],
      firstRows: [['1', 'court', '2,00']],
    });
  });
});

describe('the date formats a sample reads', () => {
  it('leaves both day-first and month-first when every date could be either', () => {
    expect(dateFormatsReading(['03/04/2026', '05/04/2026'])).toEqual(['DD/MM/YYYY', 'MM/DD/YYYY']);
  });

  it('keeps the one format that reads a day past the twelfth', () => {
    expect(dateFormatsReading(['03/04/2026', '25/04/2026 14:30'])).toEqual(['DD/MM/YYYY']);
    expect(dateFormatsReading(['2026-11-02', ''])).toEqual(['YYYY-MM-DD']);
    expect(dateFormatsReading(['05-nov.-2026'])).toEqual(['DD-MMM-YYYY']);
  });
});
