/**
 * Driving the import profile builder as a treasury user does, one choice at a time, from a profile
 * written as data (the demo's example profiles): the steps that make a profile in the browser share
 * this one path. Also the example exports read by hand, cell by cell, to check the preview against.
 */
import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import type { ImportProfile } from '../../../src/demo/product.js';
import type { BrowserSession } from './session.js';

/** A profile whose columns are named by the file's header, as the example profiles are. */
type NamedColumns = ImportProfile & { reference: string; date: { column: string } };

const DELIMITERS: Record<string, string> = { ',': 'Commas (,)', ';': 'Semicolons (;)', '\t': 'Tabs' };
const LAYOUTS = {
  signed: 'One amount column, negative for money out',
  debit_credit: 'A debit column and a credit column',
  flagged: 'An amount column and a direction column (D/C, in/out)',
} as const;
const GROUPINGS: Record<string, string> = { none: 'none', ',': 'comma', '.': 'dot', ' ': 'space', "'": 'apostrophe' };

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The cells of a line as `writeCell` writes them: a cell holding the delimiter or a quote is quoted. */
export function cellsOf(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quoted && char === '"' && line[index + 1] === '"') {
      cell += '"';
      index += 1;
    } else if (char === '"') quoted = !quoted;
    else if (char === delimiter && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  return [...cells, cell];
}

/** A written amount (`1,802.79`, `-12.00`) as the preview shows it, signed and with its currency: `+1,802.79 USD`. */
export function shownAmount(written: string, negative: boolean, currency: string): string {
  const digits = written.replace(/^-/, '').replace(/,/g, '');
  const decimals = digits.split('.')[1]?.length ?? 0;
  const body = Number(digits).toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return `${negative ? '-' : '+'}${body} ${currency}`;
}

export function profileBuilder(session: BrowserSession) {
  const { modal, eventually } = session;

  /** The builder's sample line ("Read with these settings: …"), which every redraw writes again. */
  const sampleRead = () => modal().locator('.block', { hasText: 'Read with these settings' }).first();

  /**
   * Makes a change to an input that redraws the builder, and waits for the redraw: the page draws the
   * modal anew (a new element, which the mark set before the change is not on); `until` says what it shows.
   */
  async function redrawnAfter(change: () => Promise<unknown>, until?: () => Promise<boolean>): Promise<void> {
    await modal().evaluate((element) => (element as unknown as { setAttribute(name: string, value: string): void }).setAttribute('data-before-redraw', ''));
    await change();
    await eventually(() => session.page.locator('#modal[data-before-redraw]').count()).toBe(0);
    if (until) await eventually(until).toBe(true);
  }

  /** Picks a column of the file in a role's select, by its header name as the option shows it ("4. Référence – e.g. …"). */
  async function chooseColumn(label: string, header: string): Promise<void> {
    // The label as written, or with its " (optional)": not a longer label that begins the same ("Amount column (negative…").
    const select = modal().getByLabel(new RegExp(`^${escaped(label)}( \\(optional\\))?$`));
    const options = await select.locator('option').allTextContents();
    const option = options.find((text) => new RegExp(`^\\d+\\. ${escaped(header)}( –|$)`).test(text));
    expect(option, `${label}: ${header} in ${JSON.stringify(options)}`).toBeDefined();
    await select.selectOption({ label: option! });
  }

  /** A radio that redraws the builder: checked, and the redraw waited for, unless it is already the choice. */
  async function checkRedrawing(name: string, until?: () => Promise<boolean>): Promise<void> {
    const radio = modal().getByRole('radio', { name });
    if (await radio.isChecked()) return;
    await redrawnAfter(() => radio.check(), until);
  }

  /** A select that redraws the builder: set, and the redraw waited for, unless it already holds the value. */
  async function selectRedrawing(label: string, value: string, until?: () => Promise<boolean>): Promise<void> {
    const select = modal().getByLabel(label);
    if ((await select.inputValue()) === value) return;
    await redrawnAfter(() => select.selectOption(value), until);
  }

  /**
   * Makes `profile` in the open builder, field by field in the form's order; `fileShown` is a line of the
   * file that the builder shows once it reads the file's encoding and delimiter.
   */
  async function chooseFields(profile: NamedColumns, fileShown: string): Promise<void> {
    await modal().getByLabel('Profile name').fill(profile.name);
    await selectRedrawing('Text encoding', profile.encoding, async () => (await modal().innerText()).includes(fileShown));
    await checkRedrawing(DELIMITERS[profile.delimiter]!);
    await selectRedrawing('Lines to skip above the header', String(profile.skipAbove));
    await checkRedrawing(profile.header ? 'The first line read is a header row naming the columns' : 'No header row: columns are known by their position');
    await modal().getByLabel('Lines to skip below the records').selectOption(String(profile.skipBelow));
    await chooseColumn('Reference column', profile.reference);
    await redrawnAfter(() => chooseColumn('Date column', profile.date.column));
    await modal().getByLabel('Dates are written as').selectOption(profile.date.format);
    await modal().getByLabel('Time zone of the file’s times').selectOption(profile.timeZone);
    const { amount } = profile;
    await checkRedrawing(LAYOUTS[amount.layout]);
    if (amount.layout === 'debit_credit') {
      await chooseColumn('Debit column (money out)', String(amount.debit));
      await chooseColumn('Credit column (money in)', String(amount.credit));
    } else if (amount.layout === 'signed') await chooseColumn('Amount column (negative for money out)', String(amount.amount));
    else {
      await chooseColumn('Amount column', String(amount.amount));
      await chooseColumn('Direction column', String(amount.flag));
      await modal().getByLabel('Directions meaning money in').fill(amount.inWords.join(', '));
      await modal().getByLabel('Directions meaning money out').fill(amount.outWords.join(', '));
      await modal().getByRole('checkbox', { name: 'Every record must give its direction' }).setChecked(amount.flagRequired);
    }
    await modal()
      .getByRole('radio', { name: profile.numbers.decimalMark === ',' ? 'Comma (1250,50)' : 'Dot (1250.50)' })
      .check();
    await modal().getByLabel('Thousands are grouped with').selectOption(GROUPINGS[profile.numbers.grouping]!);
    const { currency } = profile;
    if ('fixed' in currency) {
      await checkRedrawing('Every record is in one currency');
      await modal().getByLabel('The file’s currency').selectOption(currency.fixed);
    } else {
      await checkRedrawing('A column gives each record’s currency');
      await chooseColumn('Currency column', String(currency.column));
    }
    if (profile.status) {
      await chooseColumn('Status column', String(profile.status.column));
      await modal().getByLabel('Statuses that count').fill(profile.status.counted.join(', '));
    }
    if (profile.description !== undefined) await chooseColumn('Description column', String(profile.description));
    if (profile.note !== undefined) await chooseColumn('Note column', String(profile.note));
  }

  const selected = (locator: Locator) =>
    locator.evaluate((select) => (select as unknown as { selectedOptions: Array<{ textContent: string }> }).selectedOptions[0]?.textContent ?? '');

  /** The builder's picture: a taller window, so that the file's first lines and the choices made from them are in one view. */
  async function pictureBuilder(name: string, docs: string): Promise<void> {
    const { page } = session;
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width, height: 1900 });
    await session.scrollTo(modal().getByRole('heading', { name: 'Optional columns' }));
    await session.screenshot(name, docs);
    await page.setViewportSize(viewport);
  }

  return { sampleRead, redrawnAfter, chooseFields, selected, pictureBuilder };
}
