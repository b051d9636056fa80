/** The shared reader of uploaded tables: encodings, delimiters, lines skipped, limits named, and slices that let the event loop go. */
import { describe, expect, it } from 'vitest';
import { decodeAs, readTableFile, type TableLayout, type TableReading } from '../../src/core/table-file.js';
import type { BackgroundTurns } from '../../src/runtime/turns.js';

const LAYOUT: TableLayout = { encoding: 'utf-8', delimiter: ',', skipAbove: 0, skipBelow: 0, header: true };
const LIMITS = { maxBytes: 100_000, maxRows: 100 };

/** The header's cells and each row as `line: cells`, as a person would check them against the spreadsheet. */
const shown = (reading: TableReading) => {
  if (!reading.ok) throw new Error(`refused: ${JSON.stringify(reading.problem)}`);
  return { header: reading.header?.cells, rows: reading.rows.map((row) => `${row.line}: ${row.cells.join('|')}`) };
};

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => {
  const le = Buffer.from(text, 'utf16le');
  for (let at = 0; at < le.length; at += 2) [le[at], le[at + 1]] = [le[at + 1]!, le[at]!];
  return Buffer.concat([Buffer.from([0xfe, 0xff]), le]);
};
/** Windows-1252 bytes: Latin-1 characters as themselves, the euro sign as 0x80 and the right quote as 0x92. */
const windows1252 = (text: string) => Uint8Array.from([...text].map((char) => (char === '€' ? 0x80 : char === '’' ? 0x92 : char.charCodeAt(0))));

describe('reading an uploaded table', () => {
  it('reads each encoding into the same cells', async () => {
    const text = 'name,note\nRené,Prime d’été 5 €\n';
    const expected = { header: ['name', 'note'], rows: ['2: René|Prime d’été 5 €'] };
    expect(shown(await readTableFile(Buffer.from(text), LAYOUT, LIMITS))).toEqual(expected);
    expect(shown(await readTableFile(utf16le(text), { ...LAYOUT, encoding: 'utf-16' }, LIMITS))).toEqual(expected);
    expect(shown(await readTableFile(utf16be(text), { ...LAYOUT, encoding: 'utf-16' }, LIMITS))).toEqual(expected);
    expect(shown(await readTableFile(windows1252(text), { ...LAYOUT, encoding: 'windows-1252' }, LIMITS))).toEqual(expected);
    const latin1 = 'name,note\nRené,Prime été\n';
    expect(shown(await readTableFile(Buffer.from(latin1, 'latin1'), { ...LAYOUT, encoding: 'iso-8859-1' }, LIMITS)).rows).toEqual(['2: René|Prime été']);
    expect(decodeAs(windows1252('5 €'), 'iso-8859-1')).toBe('5 \u0080');
  });

  it('refuses bytes that are not text in the encoding named: NUL bytes, broken UTF-8, UTF-16 without its mark, control characters', async () => {
    const refused = (problem: TableReading) => (problem.ok ? undefined : problem.problem);
    expect(refused(await readTableFile(utf16le('a,b\n'), LAYOUT, LIMITS))).toEqual({ code: 'file_encoding', encoding: 'utf-8' });
    expect(refused(await readTableFile(Buffer.from([0x61, 0xff, 0x0a]), LAYOUT, LIMITS))).toEqual({ code: 'file_encoding', encoding: 'utf-8' });
    expect(refused(await readTableFile(Buffer.from('a,b\n', 'utf16le'), { ...LAYOUT, encoding: 'utf-16' }, LIMITS))).toEqual({
      code: 'file_encoding',
      encoding: 'utf-16',
    });
    expect(refused(await readTableFile(Buffer.from('a,b\n\u0007,c\n'), { ...LAYOUT, encoding: 'windows-1252' }, LIMITS))).toEqual({
      code: 'file_encoding',
      encoding: 'windows-1252',
    });
  });

  it('splits on commas, semicolons or tabs, or on the delimiter chosen from the first line', async () => {
    for (const delimiter of [',', ';', '\t'] as const) {
      const text = ['a', 'b,c', 'd'].join(delimiter) + '\n' + ['1', '"2;3"', '4'].join(delimiter) + '\n';
      const reading = shown(await readTableFile(text, { ...LAYOUT, delimiter }, LIMITS));
      expect(reading.header).toHaveLength(delimiter === ',' ? 4 : 3);
    }
    const seenLines: string[] = [];
    const chosen = await readTableFile(
      'Statement\nref;amount\nA;1,50\n',
      {
        ...LAYOUT,
        skipAbove: 1,
        delimiter: (line) => {
          seenLines.push(line);
          return ';';
        },
      },
      LIMITS,
    );
    expect(seenLines).toEqual(['ref;amount']);
    expect(shown(chosen)).toEqual({ header: ['ref', 'amount'], rows: ['3: A|1,50'] });
  });

  it('skips lines above and below, blank lines not counted, and numbers rows by their line', async () => {
    const text = 'Bank statement\n\nNovember\nref,amount\nA,1\n\nB,2\nTotal,3\n';
    expect(shown(await readTableFile(text, { ...LAYOUT, skipAbove: 2, skipBelow: 1 }, LIMITS))).toEqual({
      header: ['ref', 'amount'],
      rows: ['5: A|1', '7: B|2'],
    });
    expect(shown(await readTableFile('A,1\nB,2\n', { ...LAYOUT, header: false }, LIMITS))).toEqual({ header: undefined, rows: ['1: A|1', '2: B|2'] });
  });

  it('names each limit it refuses by: size, rows, a broken quote, an empty file', async () => {
    const refused = async (content: string, layout = LAYOUT, limits = LIMITS) => {
      const reading = await readTableFile(content, layout, limits);
      return reading.ok ? undefined : reading.problem;
    };
    expect(await refused('a\n'.repeat(60_000))).toEqual({ code: 'file_too_large', maxBytes: 100_000 });
    expect(await refused(`ref\n${'A\n'.repeat(101)}`)).toEqual({ code: 'file_too_many_rows', max: 100, rows: 101 });
    expect(await refused(`ref\n${'A\n'.repeat(100)}`)).toBeUndefined();
    // Lines skipped are not rows.
    expect(await refused(`title\nref\n${'A\n'.repeat(100)}total\n`, { ...LAYOUT, skipAbove: 1, skipBelow: 1 })).toBeUndefined();
    expect(await refused('ref,note\nA,"never closed\n')).toMatchObject({ code: 'file_unreadable' });
    expect(await refused('\uFEFF \r\n\n')).toEqual({ code: 'file_empty' });
    expect(await refused('title\n', { ...LAYOUT, skipAbove: 1 })).toEqual({ code: 'file_empty' });
  });

  it('parses a large file in slices, giving the event loop back between them', async () => {
    let turns = 0;
    const counting: BackgroundTurns = {
      nextBackgroundTurn: () => {
        turns += 1;
        return new Promise((resolve) => setImmediate(resolve));
      },
    };
    const rows = Array.from({ length: 20_000 }, (_, index) => `REF-${index},${index}.50,"a note, with a comma"`);
    // A timer stands for Slack's requests: it runs while the file is parsed, not once at the end.
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 1);
    const reading = await readTableFile(`ref,amount,note\n${rows.join('\n')}\n`, LAYOUT, { maxBytes: 5_000_000, maxRows: 20_000 }, counting);
    clearInterval(timer);
    expect(reading.ok && reading.rows.length).toBe(20_000);
    expect(reading.ok && reading.rows.at(-1)?.cells).toEqual(['REF-19999', '19999.50', 'a note, with a comma']);
    expect(turns).toBeGreaterThan(5);
    expect(ticks).toBeGreaterThan(5);
  });
});
