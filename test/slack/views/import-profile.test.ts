import { checkView } from '@fleet-treasury-bot/local-slack';
import type { ViewOutput } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { IMPORT_PROFILE, type ImportProfile } from '../../../src/partner-records/profile.js';
import { readWithProfile } from '../../../src/partner-records/profile-reader.js';
import { sampleOf, type FileSample, type SampleLayout } from '../../../src/partner-records/profile-sample.js';
import { PROFILE } from '../../../src/slack/ids.js';
import {
  buildProfileModal,
  draftFromProfile,
  draftFromState,
  newDraft,
  profileFromState,
  VIEW_JSON_MAX,
  type ProfileDraft,
  type ViewStateValues,
} from '../../../src/slack/views/import-profile.js';
import { choose, inputsOf, stateOf } from '../../support/profile-modal-state.js';
import type { Surface } from '../../../src/slack/views/text.js';

const EN: Surface = { sandbox: false, locale: 'en' };
const FR: Surface = { sandbox: false, locale: 'fr' };
const B = PROFILE.blocks;
const ZONES = ['UTC', 'Africa/Kinshasa', 'Europe/Paris'];
const CURRENCIES = ['USD', 'EUR', 'CDF'];
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

/** Windows-1252 bytes: Latin-1 characters as themselves. */
const windows1252 = (text: string) => Uint8Array.from([...text].map((char) => char.charCodeAt(0)));
const STATEMENT = [
  'Relevé de compte <!channel>;;;;;;;;;',
  'Compte 00123-4567890;Période du 01/11/2026 au 30/11/2026;;;;;;;;',
  'Date;Référence;Libellé;Montant;Sens;Débit;Crédit;Devise;Statut;Note',
  '02/11/2026;VIR-881;Paiement chauffeurs;1.250,50;C;;1.250,50;EUR;Exécuté;lot 3',
  '25/11/2026;FRAIS-12;Frais de tenue;12,00;D;12,00;;EUR;Rejeté;',
  'Total;;;;;12,00;1.250,50;;;',
].join('\r\n');

function sampleFor(text: string, layout: SampleLayout): FileSample {
  const sample = sampleOf(windows1252(text), layout);
  if ('problem' in sample) throw new Error(sample.problem);
  return sample;
}
const NAMED = sampleFor(STATEMENT, { encoding: 'windows-1252', delimiter: ';', skipAbove: 2, header: true });

const profile = (fields: Partial<ImportProfile>): ImportProfile =>
  IMPORT_PROFILE.parse({
    name: 'Rawbank EUR',
    delimiter: ';',
    encoding: 'windows-1252',
    skipAbove: 2,
    skipBelow: 1,
    header: true,
    reference: 'Référence',
    date: { column: 'Date', format: 'DD/MM/YYYY' },
    timeZone: 'Africa/Kinshasa',
    amount: { layout: 'signed', amount: 'Montant' },
    numbers: { decimalMark: ',', grouping: '.' },
    currency: { column: 'Devise' },
    ...fields,
  });

function modal(surface: Surface, draft: ProfileDraft, sample: FileSample | undefined = NAMED, errors?: Record<string, string>): ModalView {
  return buildProfileModal(surface, {
    fileName: 'releve-novembre.csv',
    sample,
    draft,
    errors,
    privateMetadata: '{"upload":"F0001"}',
    timeZones: ZONES,
    currencies: CURRENCIES,
  });
}

describe('the import profile modal', () => {
  it("shows the file's first lines in a code block, escaped, and what they read as", () => {
    const view = modal(EN, newDraft('Africa/Kinshasa'));
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('Relevé de compte &lt;!channel&gt;');
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('```\\nRelevé de compte');
    expect(text).toContain('10 columns. First record: 02/11/2026 | VIR-881 | Paiement chauffeurs');
    expect(view.callback_id).toBe(PROFILE.view);
    expect(view.private_metadata).toBe('{"upload":"F0001"}');
  });

  it('fills every input from a draft, columns offered by position and header with their first value', () => {
    const saved = profile({ status: { column: 'Statut', counted: ['Exécuté', 'Comptabilisé'] }, description: 'libellé' });
    const inputs = inputsOf(modal(EN, draftFromProfile(saved)));
    const initial = (blockId: string) => inputs.get(blockId)?.element.initial_option?.value;
    expect(inputs.get(B.name)?.element.initial_value).toBe('Rawbank EUR');
    expect([initial(B.delimiter), initial(B.encoding), initial(B.skipAbove), initial(B.skipBelow), initial(B.header)]).toEqual([
      'semicolon',
      'windows-1252',
      '2',
      '1',
      'yes',
    ]);
    expect([initial(B.reference), initial(B.date), initial(B.amount), initial(B.currencyColumn), initial(B.status), initial(B.description)]).toEqual([
      '2',
      '1',
      '4',
      '8',
      '9',
      '3',
    ]);
    expect([initial(B.dateFormat), initial(B.timeZone), initial(B.amountLayout), initial(B.decimalMark), initial(B.grouping)]).toEqual([
      'DD/MM/YYYY',
      'Africa/Kinshasa',
      'signed',
      'comma',
      'dot',
    ]);
    expect(inputs.get(B.counted)?.element.initial_value).toBe('Exécuté, Comptabilisé');
    expect(inputs.get(B.note)?.element.initial_option).toBeUndefined();
    const reference = inputs.get(B.reference)?.element.options as Array<{ text: { text: string } }>;
    expect(reference.map((option) => option.text.text).slice(0, 3)).toEqual([
      '1. Date – e.g. 02/11/2026',
      '2. Référence – e.g. VIR-881',
      '3. Libellé – e.g. Paiement chauffeurs',
    ]);
    expect((inputs.get(B.note)?.element.options as Array<{ value: string }>)[0]?.value).toBe('none');
    expect(inputs.get(B.dateFormat)?.hint?.text).toBe('The file writes: 02/11/2026, 25/11/2026');
    // Only the inputs for this layout: no debit, credit or direction.
    expect([B.debit, B.credit, B.flag, B.inWords, B.currency].filter((blockId) => inputs.has(blockId))).toEqual([]);
    expect(checkView(asJson(modal(EN, draftFromProfile(saved))))).toEqual([]);
  });

  it('rebuilds the modal from what is chosen when a layout input changes', () => {
    const inputs = inputsOf(modal(EN, newDraft('UTC')));
    for (const [field, action] of Object.entries(PROFILE.rebuild)) {
      const block = inputs.get(B[field as keyof typeof B]);
      expect({ field, action: block?.element.action_id, dispatch: block?.dispatch_action }).toEqual({ field, action, dispatch: true });
    }
    expect(inputs.get(B.reference)?.dispatch_action).toBeUndefined();
    const state = choose(choose(stateOf(modal(EN, newDraft('UTC'))), B.amountLayout, 'flagged'), B.reference, '2');
    const rebuilt = inputsOf(modal(EN, draftFromState(state)));
    expect([B.amount, B.flag, B.inWords, B.outWords, B.flagRequired].every((blockId) => rebuilt.has(blockId))).toBe(true);
    expect(rebuilt.get(B.reference)?.element.initial_option?.value).toBe('2');
    expect(rebuilt.get(B.timeZone)?.element.initial_option?.value).toBe('UTC');
    // Choosing the date column shows its dates, and the one format that reads them all.
    expect(inputsOf(modal(EN, newDraft('UTC'))).get(B.dateFormat)?.element.initial_option).toBeUndefined();
    const dated = inputsOf(modal(EN, draftFromState(choose(state, B.date, '1'))));
    expect(dated.get(B.dateFormat)?.element.initial_option?.value).toBe('DD/MM/YYYY');
    expect(dated.get(B.dateFormat)?.hint?.text).toBe('The file writes: 02/11/2026, 25/11/2026');
  });
});

describe('the profile read back from the submitted modal', () => {
  const roundTrip = (saved: ImportProfile, sample: FileSample) => profileFromState(stateOf(modal(EN, draftFromProfile(saved), sample)), sample, EN);

  it('gives back a signed-amount profile with a status, description and note', () => {
    const saved = profile({ status: { column: 'Statut', counted: ['Exécuté'] }, description: 'Libellé', note: 'Note' });
    expect(roundTrip(saved, NAMED)).toEqual({ ok: true, profile: saved });
  });

  it('gives back a debit and credit profile in one fixed currency', () => {
    const saved = profile({
      amount: { layout: 'debit_credit', debit: 'Débit', credit: 'Crédit' },
      currency: { fixed: 'EUR' },
      numbers: { decimalMark: ',', grouping: ' ' },
    });
    expect(roundTrip(saved, NAMED)).toEqual({ ok: true, profile: saved });
  });

  it('gives back a direction-flag profile of a file without a header row, its columns by position', () => {
    const sample = sampleFor(STATEMENT, { encoding: 'windows-1252', delimiter: ';', skipAbove: 3, header: false });
    const saved = profile({
      skipAbove: 3,
      header: false,
      reference: 2,
      date: { column: 1, format: 'DD/MM/YYYY' },
      amount: { layout: 'flagged', amount: 4, flag: 5, inWords: ['C', 'CR'], outWords: ['D'], flagRequired: true },
      currency: { column: 8 },
      note: 10,
    });
    expect(roundTrip(saved, sample)).toEqual({ ok: true, profile: saved });
  });

  it('reads the uploaded file with the profile the person built from it', async () => {
    const draft = { ...newDraft('Africa/Kinshasa'), delimiter: ';', encoding: 'windows-1252', skipAbove: 2, skipBelow: 1, name: 'Rawbank' } as const;
    let state = stateOf(modal(EN, { ...draft, amountLayout: 'debit_credit', currencyKind: 'fixed', currency: 'EUR' }));
    for (const [blockId, value] of [
      [B.reference, '2'],
      [B.date, '1'],
      [B.debit, '6'],
      [B.credit, '7'],
      [B.decimalMark, 'comma'],
      [B.grouping, 'dot'],
    ] as const)
      state = choose(state, blockId, value);
    const built = profileFromState(choose(state, B.dateFormat, 'DD/MM/YYYY'), NAMED, EN);
    if (!built.ok) throw new Error(JSON.stringify(built.errors));
    const limits = { maxBytes: 100_000, maxRows: 100, timeZone: 'Africa/Kinshasa', currencies: new Set(['EUR']) };
    const reading = await readWithProfile(windows1252(STATEMENT), built.profile, limits);
    expect(reading.ok && reading.records.map(({ reference, day, amountMinor }) => ({ reference, day, amountMinor }))).toEqual([
      { reference: 'VIR-881', day: '2026-11-02', amountMinor: 125050 },
      { reference: 'FRAIS-12', day: '2026-11-25', amountMinor: -1200 },
    ]);
  });

  it('names a column by position when its header is blank or repeated', () => {
    const sample = sampleFor('Date;;Montant;Montant;Devise\n02/11/2026;A-1;5,00;6,00;EUR\n', {
      encoding: 'windows-1252',
      delimiter: ';',
      skipAbove: 0,
      header: true,
    });
    const state = choose(
      choose(stateOf(modal(EN, { ...newDraft('UTC'), date: 'Date', currencyColumn: 'Devise', dateFormat: 'DD/MM/YYYY', name: 'x' }, sample)), B.reference, '2'),
      B.amount,
      '4',
    );
    const read = profileFromState(choose(state, B.decimalMark, 'comma'), sample, EN);
    expect(read.ok && [read.profile.reference, read.profile.amount]).toEqual([2, { layout: 'signed', amount: 4 }]);
  });

  it('puts each problem under its block: a role left out, a column used twice, the decimal mark also grouping', () => {
    const state = stateOf(modal(EN, draftFromProfile(profile({ description: 'Libellé' }))));
    const broken = choose(choose(choose(state, B.reference, null), B.description, '4'), B.grouping, 'comma');
    expect(profileFromState(broken, NAMED, EN)).toEqual({
      ok: false,
      errors: {
        [B.reference]: 'Choose the column.',
        [B.description]: 'This column is already the amount column: a column has one role.',
        [B.grouping]: 'The decimal mark cannot also group thousands.',
      },
    });
  });

  it('never picks a date format when day and month could swap, and asks for one', () => {
    const ambiguous = sampleFor('Date;Ref;Montant\n03/04/2026;A-1;5,00\n05/04/2026;A-2;6,00\n', {
      encoding: 'windows-1252',
      delimiter: ';',
      skipAbove: 0,
      header: true,
    });
    const draft = { ...newDraft('UTC'), name: 'Caisse', date: 'Date', reference: 'Ref', amount: 'Montant', currencyKind: 'fixed', currency: 'USD' } as const;
    const view = modal(EN, draft, ambiguous);
    const format = inputsOf(view).get(B.dateFormat);
    expect(format?.element.initial_option).toBeUndefined();
    expect(format?.hint?.text).toBe('The file writes: 03/04/2026, 05/04/2026. Day and month could be either way round here: choose.');
    expect(profileFromState(stateOf(view), ambiguous, EN)).toEqual({
      ok: false,
      errors: { [B.dateFormat]: 'Choose how the file writes dates: 03/04/2026 could be day first or month first.' },
    });
    const clear = sampleFor('Date;Ref;Montant\n03/04/2026;A-1;5,00\n25/04/2026;A-2;6,00\n', {
      encoding: 'windows-1252',
      delimiter: ';',
      skipAbove: 0,
      header: true,
    });
    expect(inputsOf(modal(EN, draft, clear)).get(B.dateFormat)?.element.initial_option?.value).toBe('DD/MM/YYYY');
  });

  it('speaks French: labels, and the problems under their blocks', () => {
    const draft = draftFromProfile(profile({ amount: { layout: 'debit_credit', debit: 'Débit', credit: 'Crédit' } }));
    const view = modal(FR, draft, NAMED, { [B.debit]: 'Choisissez la colonne.' });
    const text = JSON.stringify(view);
    expect(text).toContain('Colonne du débit (sorties d’argent)');
    expect(text).toContain('Colonne du crédit (entrées d’argent)');
    expect(text).toContain('Lignes à ignorer au-dessus de l’en-tête');
    expect(text).toContain(':warning: Choisissez la colonne.');
    const broken = choose(stateOf(view), B.credit, '6');
    expect(profileFromState(broken, NAMED, FR)).toEqual({
      ok: false,
      errors: { [B.credit]: 'Cette colonne est déjà la colonne du débit : une colonne n’a qu’un rôle.' },
    });
  });
});

describe("the modal within Slack's limits", () => {
  const header = Array.from({ length: 150 }, (_, index) => `Colonne au nom très long, vraiment beaucoup trop long pour une liste, numéro ${index + 1}`);
  const row = Array.from({ length: 150 }, (_, index) => `<!channel> valeur ${index + 1} ${'x'.repeat(100)}`);
  const wide = sampleFor([header.join(';'), row.join(';'), row.join(';')].join('\n'), { encoding: 'windows-1252', delimiter: ';', skipAbove: 0, header: true });

  it('has columns typed by number or name for a file of 150 columns, and fits', () => {
    for (const layout of ['signed', 'debit_credit', 'flagged'] as const) {
      for (const surface of [EN, FR, { ...EN, sandbox: true }]) {
        const view = modal(surface, { ...newDraft('UTC'), amountLayout: layout }, wide, { [B.reference]: 'x'.repeat(5000) });
        expect(checkView(asJson(view))).toEqual([]);
        expect(view.blocks.length).toBeLessThan(100);
        expect(JSON.stringify(view).length).toBeLessThanOrEqual(VIEW_JSON_MAX);
        expect(JSON.stringify(view)).not.toContain('<!channel>');
      }
    }
    const reference = inputsOf(modal(EN, newDraft('UTC'), wide)).get(B.reference);
    expect(reference?.element.type).toBe('plain_text_input');
    expect(reference?.hint?.text).toContain('The file has 150 columns');
  });

  it('lists the columns of a narrow file, and has them typed when the lists would make the view too large', () => {
    const named = modal(EN, { ...newDraft('UTC'), amountLayout: 'flagged' });
    expect(inputsOf(named).get(B.flag)?.element.type).toBe('static_select');
    const sixty = sampleFor(
      [Array.from({ length: 60 }, (_, index) => `Libellé de la colonne numéro ${index + 1} ${'x'.repeat(40)}`).join(';'), 'a;'.repeat(60)].join('\n'),
      {
        encoding: 'windows-1252',
        delimiter: ';',
        skipAbove: 0,
        header: true,
      },
    );
    const view = modal(EN, { ...newDraft('UTC'), amountLayout: 'flagged' }, sixty);
    expect(inputsOf(view).get(B.flag)?.element.type).toBe('plain_text_input');
    expect(JSON.stringify(view).length).toBeLessThanOrEqual(VIEW_JSON_MAX);
  });

  it('reads the state values as Bolt types them', () => {
    const values = stateOf(modal(EN, newDraft('UTC'))) as unknown as ViewOutput['state']['values'];
    expect(draftFromState(values)).toMatchObject({ timeZone: 'UTC', delimiter: ',', amountLayout: 'signed' });
  });

  it('reads a column typed by its number or its header name', () => {
    const state = stateOf(modal(EN, { ...newDraft('UTC'), name: 'Wide', dateFormat: 'YYYY-MM-DD', currencyKind: 'fixed', currency: 'USD' }, wide));
    const typed = (values: ViewStateValues, blockId: string, text: string) => ({ ...values, [blockId]: { [PROFILE.typedColumn]: { value: text } } });
    const filled = typed(typed(typed(state, B.reference, '120'), B.date, header[2]!.toUpperCase()), B.amount, '151');
    expect(profileFromState(filled, wide, EN)).toEqual({
      ok: false,
      errors: { [B.amount]: 'Type a column number from 1 to 150, or a name from the header row.' },
    });
    const read = profileFromState(typed(filled, B.amount, '3'), wide, EN);
    expect(read).toMatchObject({ ok: false, errors: { [B.amount]: 'This column is already the date column: a column has one role.' } });
    const fixed = profileFromState(typed(filled, B.amount, '7'), wide, EN);
    expect(fixed.ok && [fixed.profile.reference, fixed.profile.date.column, fixed.profile.amount]).toEqual([
      header[119],
      header[2],
      { layout: 'signed', amount: header[6] },
    ]);
  });

  it('cuts the first lines of a wide file to fit one section', () => {
    const view = modal(EN, newDraft('UTC'), wide);
    const lines = (view.blocks.find((block) => block.block_id === PROFILE.sampleBlock) as { text: { text: string } }).text.text;
    expect(lines.length).toBeLessThanOrEqual(3000);
    expect(lines.startsWith('```\n') && lines.endsWith('\n```')).toBe(true);
  });
});
