/**
 * Plays the product in Debian's Chromium, by clicking and typing on the demo page as its people would:
 * the balance, transactions with Next, a mobile money payout requested by Rita and approved by Abel,
 * then the payout in the feed channel, the runway with its chart shown in Abel's direct messages, an export
 * Abel downloads from his direct messages, the demo's example records file reconciled for him, a
 * possible duplicate, a scheduled payout and the Workflow Builder step.
 * The steps run in order and share one demo; each saves a screenshot under test-output/demo/ (ignored
 * by git). The four flows docs/demo.md walks through (a scheduled payout, a duplicate, a reconcile,
 * the Workflow step) also name the screenshots the page shows: with DEMO_DOCS_SCREENSHOTS=1 they are
 * written to docs/demo/ as well, so that a plain test run leaves the tree as it was.
 */
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { Writable } from 'node:stream';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startDemo, type Demo } from '../../src/demo/demo.js';
import { DEMO_CHANNELS, DEMO_PEOPLE, type DemoPerson } from '../../src/demo/people.js';
import { createLogger } from '../../../../src/logger.js';
import { systemClock } from '../../../../src/clock.js';
import { formatAmount, minorToPlain, toMinor } from '../../../../src/money.js';
import { NO_ACCESS_MESSAGE } from '../../../../src/slack/viewers.js';
import type { Db } from '../../../../src/store/index.js';
import { checkMessage, checkView } from '../../src/workspace/index.js';
import { recordsExampleDays } from '../../src/demo/records-example.js';
import { testDatabases } from '../../../../test/support/databases.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const SCREENSHOTS = 'test-output/demo';
const DOCS_SCREENSHOTS = new URL('../../../../docs/demo/', import.meta.url);
const WRITE_DOCS_SCREENSHOTS = process.env.DEMO_DOCS_SCREENSHOTS === '1';

describe('the demo page in a real browser', () => {
  let db: Db;
  let demo: Demo;
  let browser: Browser;
  let page: Page;
  const logs: string[] = [];
  let shots = 0;
  let clockAheadMs = 0;

  beforeAll(async () => {
    // Only this run's screenshots, so a failure's picture from an earlier run cannot mislead.
    await rm(SCREENSHOTS, { recursive: true, force: true });
    await mkdir(SCREENSHOTS, { recursive: true });
    db = await testDatabases()[0]!.open();
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString());
        done();
      },
    });
    // No background activity: the balance and the transaction pages stay what the sandbox says they are.
    // The bot's clock is the real one until the scheduled payout's step moves it past the payout's time.
    const clock = { now: () => new Date(Date.now() + clockAheadMs), sleep: (ms: number, signal?: AbortSignal) => systemClock.sleep(ms, signal) };
    demo = await startDemo({ port: 0, db, activitySeconds: 0, clock, logger: createLogger({ level: 'warn', destination }) });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.setDefaultTimeout(10_000);
    await page.goto(demo.url);
    await page.waitForSelector('body[data-ready]');
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    await db?.close();
  });

  const sandbox = () => demo.bot.sandbox!;
  /** A screenshot of the page; `docs` names the one docs/demo.md shows, copied there with DEMO_DOCS_SCREENSHOTS=1. */
  const screenshot = async (name: string, docs?: string) => {
    const path = `${SCREENSHOTS}/${String(++shots).padStart(2, '0')}-${name}.png`;
    await page.screenshot({ path });
    if (docs && WRITE_DOCS_SCREENSHOTS) {
      await mkdir(DOCS_SCREENSHOTS, { recursive: true });
      await copyFile(path, new URL(`${docs}.png`, DOCS_SCREENSHOTS));
    }
  };
  /** On failure: the bot's warnings, and a screenshot of what the page showed then. */
  const showLogsOnFailure = () =>
    onTestFailed(async ({ task }) => {
      console.log(`bot logs (warn and above):\n${logs.join('')}`);
      const name = task.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 60);
      await page.screenshot({ path: `${SCREENSHOTS}/failed-${name}.png` }).catch(() => undefined);
    });
  const message = (text: string | RegExp) => page.locator('article.message', { hasText: text });
  const modal = () => page.locator('#modal');
  /** `expect.poll` as patient as the page's own actions: vitest gives up after one second, short for a slow machine. */
  const eventually = <T>(probe: () => T | Promise<T>) => expect.poll(probe, { timeout: 10_000 });

  /** Scrolls a message into view; the page draws messages again as they change, so a detached one is looked up again. */
  async function scrollTo(locator: Locator): Promise<void> {
    await eventually(() => locator.scrollIntoViewIfNeeded({ timeout: 2_000 }).then(() => true, () => false)).toBe(true);
  }

  async function run(command: string): Promise<void> {
    await page.getByLabel('Slash command').fill(command);
    await page.getByLabel('Slash command').press('Enter');
  }

  /** Switches the page to another person and opens a channel, or their direct messages with the bot. */
  async function become(person: DemoPerson, where: { channelId: string } | 'direct messages'): Promise<void> {
    await page.locator('#person').selectOption(person.id);
    // Their sidebar (their own DM) is drawn once the page shows their role.
    await eventually(() => page.locator('#role').innerText()).toBe(person.role);
    const conversation = where === 'direct messages' ? page.locator('#dms a') : page.locator(`[data-conversation="${where.channelId}"]`);
    await conversation.click();
    await eventually(() => conversation.getAttribute('class')).toContain('active');
  }

  /** Rita asks for a mobile money payout through the form, to its confirmation; the request's id. */
  async function ritaRequestsMobilePayout(fields: { phone: string; name: string; operator: string; amount: string; currency: string }): Promise<string> {
    await become(DEMO_PEOPLE.rita, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/fleet payout mobile');
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Mobile money payout');
    await modal().getByLabel('Phone number').fill(fields.phone);
    await modal().getByLabel('Recipient name').fill(fields.name);
    await modal().getByLabel('Country').fill('CD');
    await modal().getByLabel('Mobile money operator').selectOption(fields.operator);
    await modal().getByLabel('Amount').fill(fields.amount);
    await modal().getByLabel('Currency', { exact: true }).selectOption(fields.currency);
    await modal().getByRole('button', { name: 'Review' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Check the payout');
    await modal().getByRole('button', { name: 'Submit for approval' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Payout requested');
    const id = /PR-[A-Z0-9]+/.exec(await modal().innerText())?.[0] ?? '';
    expect(id).not.toBe('');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    return id;
  }

  it('shows Rita the balance in every currency, only to her', async () => {
    showLogsOnFailure();
    await run('/fleet balance');
    const reply = message('Fleet account balance');
    await eventually(() => reply.count()).toBe(1);
    await eventually(() => reply.innerText()).toContain('Only visible to you');
    for (const [currency, amount] of Object.entries(sandbox().balances())) {
      expect(await reply.innerText()).toContain(formatAmount(amount, currency, { locale: 'en' }));
    }
    await screenshot('balance');
  });

  it('pages Rita through the transactions with Next, updating the message in place', async () => {
    showLogsOnFailure();
    const newest = sandbox().transactions().slice(0, 20).map((tx) => tx.reference);
    await run('/fleet transactions');
    const list = message('Fleet account transactions');
    // "Showing 1–10" while the ledger's first walk runs, "320 transactions, showing 1–10" once it is done.
    await eventually(() => list.innerText()).toMatch(/showing 1–10/i);
    for (const reference of newest.slice(0, 10)) expect(await list.innerText()).toContain(reference);
    await screenshot('transactions-page-1');

    await list.getByRole('button', { name: 'Next' }).click();
    await eventually(() => list.innerText()).toMatch(/showing 11–20/i);
    expect(await list.count()).toBe(1);
    const second = await list.innerText();
    for (const reference of newest.slice(10, 20)) expect(second).toContain(reference);
    expect(second).not.toContain(newest[0]);
    await screenshot('transactions-page-2');
  });

  it('lets Rita narrow the transactions with the Filter modal, its selects and date picker, into the same message', async () => {
    showLogsOnFailure();
    const reader = demo.bot.ledger!.reader;
    for (let wait = 0; wait < 600 && !(await reader.status()).historyComplete; wait += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    const all = sandbox().transactions();
    const since = all[40]!.date.slice(0, 10);
    const expected = all.filter((tx) => tx.currency === 'USD' && tx.amount < 0 && Math.abs(tx.amount) >= 10 && tx.date.slice(0, 10) >= since);
    expect(expected.length).toBeGreaterThan(0);

    const list = message('Fleet account transactions');
    await list.getByRole('button', { name: 'Filter' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Filter transactions');
    await modal().getByLabel('Currency').selectOption('USD');
    await modal().getByLabel('Direction').selectOption('out');
    await modal().getByLabel('From (day included)').fill(since);
    await modal().getByLabel('Smallest amount').fill('10');
    await screenshot('transactions-filter');
    await modal().getByRole('button', { name: 'Search' }).click();

    const count = `${expected.length.toLocaleString('en-US')} ${expected.length === 1 ? 'match' : 'matches'}`;
    await eventually(() => list.innerText()).toContain(count);
    expect(await list.count()).toBe(1);
    const shown = await list.innerText();
    expect(shown).toContain('in USD · money out · from');
    expect(shown).toContain('amount at least 10');
    expect(shown).toContain(expected[0]!.reference);
    // Picking in selects that share an action_id (each input is `value`) reached the right field, with no error shown.
    expect(await page.locator('#toasts .toast').allInnerTexts()).toEqual([]);
    await screenshot('transactions-filtered');
  });

  let requestId = '';

  it('lets Rita request a mobile money payout, correct the field the app refused, review and submit it', async () => {
    showLogsOnFailure();
    await run('/fleet payout');
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('New payout');
    await modal().getByRole('button', { name: 'Mobile money' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Mobile money payout');

    await modal().getByLabel('Phone number').fill('24381234567O');
    await modal().getByLabel('Recipient name').fill('Amani Kabila');
    await modal().getByLabel('Country').fill('CD');
    await modal().getByLabel('Mobile money operator').selectOption('VODACOM_MPESA');
    await modal().getByLabel('Amount').fill('150');
    await modal().getByLabel('Currency', { exact: true }).selectOption('USD');
    await screenshot('payout-form');
    await modal().getByRole('button', { name: 'Review' }).click();

    const phoneError = modal().locator('.block.input', { hasText: 'Phone number' }).locator('.field-error');
    await eventually(() => phoneError.innerText()).toContain('digits only');
    expect(await modal().locator('.field-error').count()).toBe(1);
    await screenshot('payout-form-error');

    await modal().getByLabel('Phone number').fill('243812345670');
    await modal().getByRole('button', { name: 'Review' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Check the payout');
    const review = await modal().innerText();
    for (const detail of ['243812345670', 'Amani Kabila', 'Vodacom M-Pesa', '150.00 USD']) expect(review).toContain(detail);
    await screenshot('payout-review');

    await modal().getByRole('button', { name: 'Submit for approval' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Payout requested');
    requestId = /PR-[A-Z0-9]+/.exec(await modal().innerText())?.[0] ?? '';
    expect(requestId).not.toBe('');
    await screenshot('payout-requested');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    await eventually(() => modal().count()).toBe(0);
    expect(sandbox().payouts()).toHaveLength(0);
  });

  it('lets Abel approve it in the modal and Ada send it (a new recipient needs two), after which the approval message ends with the transaction id', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.approvals.id });
    const approval = message(requestId);
    await eventually(() => approval.innerText()).toContain('Waiting for approval');
    expect(await approval.innerText()).toContain('New recipient');
    await screenshot('approval-waiting');

    await approval.getByRole('button', { name: 'Approve' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approve ${requestId}`);
    await screenshot('approval-modal');
    await modal().getByRole('button', { name: 'Approve', exact: true }).click();
    await eventually(() => modal().innerText()).toContain('One more approver must approve');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    expect(sandbox().payouts()).toHaveLength(0);

    await become(DEMO_PEOPLE.ada, { channelId: DEMO_CHANNELS.approvals.id });
    await message(requestId).getByRole('button', { name: 'Approve' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approve ${requestId}`);
    await modal().getByRole('button', { name: 'Approve and send' }).click();
    await eventually(() => modal().innerText()).toContain('Sent.');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();

    const [payout] = sandbox().payouts();
    expect(payout?.body).toMatchObject({ amount: 150, currency: 'USD', operator: 'VODACOM_MPESA' });
    const transactionId = payout!.transactionId;
    const status = approval.locator('.section-text', { hasText: 'Status' });
    await eventually(() => status.innerText()).toMatch(new RegExp(`Transaction ${transactionId}\\.?$`));
    expect(await approval.innerText()).toContain('(edited)');
    expect(await approval.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await screenshot('approval-sent');
  });

  it('shows the sent payout in the feed channel once the feed polls the Fleet API', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.feed.id });
    const payout = sandbox().payouts()[0]!;
    // The feed polls every 5 seconds.
    const post = message(payout.transactionId);
    await expect.poll(() => post.count(), { timeout: 15_000 }).toBe(1);
    const text = await post.innerText();
    expect(text).toContain('150.00 USD');
    expect(text).toContain((payout.body as { reference: string }).reference);
    await screenshot('feed');
  });

  it('tells Rita in her direct messages with the bot that her payout was sent', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.rita, 'direct messages');
    const transactionId = sandbox().payouts()[0]!.transactionId;
    const sent = message('was sent');
    await eventually(() => sent.count()).toBe(1);
    expect(await sent.innerText()).toContain(requestId);
    expect(await sent.innerText()).toContain(transactionId);
    await screenshot('requester-told');
  });

  it('tells Nico the newcomer that he has no access', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.nico, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/fleet balance');
    const refusal = NO_ACCESS_MESSAGE.replace(':lock: ', '').split('.')[0]!;
    await eventually(() => message(refusal).count()).toBe(1);
    expect(await page.locator('article.message', { hasText: 'Fleet account balance' }).count()).toBe(0);
    await screenshot('newcomer-refused');
  });

  it('keeps the person chosen in the switcher when an answer for the previous person arrives late', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.nico, { channelId: DEMO_CHANNELS.treasury.id });
    let arrived!: () => void;
    let release!: () => void;
    const nicoAsked = new Promise<void>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const nicoState = `**/workspace/state?as=${DEMO_PEOPLE.nico.id}`;
    await page.route(nicoState, async (route) => {
      arrived();
      await released;
      await route.continue();
    });
    try {
      // Anything new in the workspace makes the page ask for Nico's state again; that answer is held back.
      // The bot posts in #treasury once invited there, as in Slack.
      demo.slack.invite(DEMO_CHANNELS.treasury.id);
      await demo.bot.app.client.chat.postMessage({ channel: DEMO_CHANNELS.treasury.id, text: 'Treasury stand-up at 10:00' });
      await nicoAsked;
      await page.locator('#person').selectOption(DEMO_PEOPLE.abel.id);
      release();
      await eventually(() => page.locator('#role').innerText()).toBe(DEMO_PEOPLE.abel.role);
      expect(await page.locator('#person').inputValue()).toBe(DEMO_PEOPLE.abel.id);
      await eventually(() => page.locator('#dms a').getAttribute('data-conversation')).toBe(`D${DEMO_PEOPLE.abel.id.slice(1)}`);
    } finally {
      release();
      await page.unroute(nicoState);
    }
  });

  it('answers Abel\'s /fleet runway and shows him its chart in his direct messages, an image the workspace serves itself', async () => {
    showLogsOnFailure();
    const ledger = demo.bot.ledger!.reader;
    await eventually(async () => (await ledger.status()).historyComplete).toBe(true);
    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/fleet runway');
    const reply = message('Runway: how long the money lasts');
    await eventually(() => reply.count()).toBe(1);
    for (const currency of Object.keys(sandbox().balances())) expect(await reply.innerText()).toContain(currency);
    await screenshot('runway-reply');

    await become(DEMO_PEOPLE.abel, 'direct messages');
    const chart = page.locator('figure.file-image img').last();
    await eventually(() => chart.count()).toBe(1);
    // Loaded from the page's own address, and drawn: a PNG at least 600 pixels wide.
    expect(await chart.getAttribute('src')).toMatch(/^\/workspace\/files\/F\w+\?as=U\w+&inline=1$/);
    const drawnWidth = () => chart.evaluate((img) => {
      const image = img as unknown as { complete: boolean; naturalWidth: number };
      return image.complete ? image.naturalWidth : 0;
    });
    await eventually(drawnWidth).toBeGreaterThanOrEqual(600);
    await scrollTo(chart);
    await screenshot('runway-chart-in-dm');
  });

  it('sends Abel an export he downloads from his direct messages, one row per transaction in the ledger', async () => {
    showLogsOnFailure();
    const ledger = demo.bot.ledger!.reader;
    await eventually(async () => (await ledger.status()).historyComplete).toBe(true);
    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/fleet export since:2000-01-01');
    const reply = message('sent to your direct messages');
    await eventually(() => reply.count()).toBe(1);
    const sent = Number(/(\d[\d,]*) transactions sent/.exec(await reply.innerText())?.[1]?.replace(/,/g, ''));
    await screenshot('export-sent');

    await become(DEMO_PEOPLE.abel, 'direct messages');
    const link = page.locator('.file a.file-download').last();
    await eventually(() => link.count()).toBe(1);
    await screenshot('export-in-dm');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^fleet-transactions-2000-01-01_now\.csv$/);
    const text = await readFile(await download.path(), 'utf8');
    const rows = parse<Record<string, string>>(text, { bom: true, columns: true });
    expect(rows).toHaveLength(sent);
    const known = new Map(sandbox().transactions().map((tx) => [tx.reference, tx]));
    for (const row of rows) {
      const tx = known.get(row.reference!.replace(/^'/, ''));
      expect(tx, row.reference).toBeDefined();
      expect(row.amount).toBe(minorToPlain(toMinor(tx!.amount, tx!.currency), tx!.currency));
      expect(row.date).toBe(tx!.date);
    }
    expect(rows.map((row) => row.date)).toEqual(rows.map((row) => row.date).sort());
  });

  it('reconciles the demo\'s example records file for Abel: most records matched, one exception of each kind, the file in his DM', async () => {
    showLogsOnFailure();
    const ledger = demo.bot.ledger!.reader;
    await eventually(async () => (await ledger.status()).historyComplete).toBe(true);
    const [first, last] = recordsExampleDays(new Date(Date.now() + clockAheadMs));
    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.treasury.id });
    // The example file, from the sidebar's Example files, as a first-timer downloads it.
    const [example] = await Promise.all([page.waitForEvent('download'), page.locator('a.sample-file', { hasText: 'records.csv' }).click()]);
    expect(example.suggestedFilename()).toBe('records.csv');
    const records = await readFile(await example.path(), 'utf8');
    const count = records.trim().split('\n').length - 1;
    expect(count).toBeGreaterThanOrEqual(10);

    await run('/fleet reconcile');
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Check records');
    expect(await modal().innerText()).toContain('within 1 day of their date');
    await modal().locator('input[type=file]').setInputFiles({ name: 'records.csv', mimeType: 'text/csv', buffer: Buffer.from(records) });
    await eventually(() => modal().innerText()).toContain('records.csv uploaded');
    await screenshot('records-form', 'reconcile-form');
    await modal().getByRole('button', { name: 'Check' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Records checked');
    const summary = await modal().innerText();
    for (const detail of [
      `${count} records from ${first} to ${last}`, `${count - 2} matched`, '1 found in the ledger with another amount', '1 record not in the ledger',
      '1 ledger entry not in your records', 'in your direct messages with the app',
    ]) expect(summary).toContain(detail);
    const runId = /RC-[A-Z0-9]{6}/.exec(summary)?.[0] ?? '';
    expect(runId).not.toBe('');
    const fileName = `fleet-records-${first}_${last}-${runId}.csv`;
    expect(summary).toContain(fileName);
    await screenshot('records-checked', 'reconcile-summary');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();

    await become(DEMO_PEOPLE.abel, 'direct messages');
    const told = message('Records checked').last();
    await eventually(() => told.innerText()).toContain(runId);
    expect(await told.innerText()).toContain(`${fileName}, just below`);
    expect(await told.innerText()).not.toContain('direct messages');
    const file = page.locator('.file', { hasText: 'Records check exceptions' }).last();
    await eventually(() => file.count()).toBe(1);
    await scrollTo(file);
    await screenshot('records-in-dm', 'reconcile-dm');
    const [download] = await Promise.all([page.waitForEvent('download'), file.locator('a.file-download').click()]);
    expect(download.suggestedFilename()).toBe(fileName);
    const rows = parse<Record<string, string>>(await readFile(await download.path(), 'utf8'), { bom: true, columns: true });
    expect(rows.map((row) => row.kind)).toEqual(['amount_difference', 'not_in_ledger', 'not_in_records']);
    expect(rows[1]).toMatchObject({ reference: '', date: last, records_amount: expect.stringMatching(/^-12\.\d\d$/), currency: 'USD', note: 'Bank charges, not yet in the fleet account' });
    expect(sandbox().transactions().some((tx) => tx.reference === rows[2]!.reference!.replace(/^'/, ''))).toBe(true);
  });

  const toasts = () => page.locator('.toast').allInnerTexts();

  it('says at once that /feet is not a valid command, as Slack does, instead of waiting for a timeout', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.rita, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/feet balance');
    await eventually(toasts).toContainEqual(expect.stringContaining('/feet is not a valid command'));
    expect((await toasts()).join(' ')).not.toContain('did not answer in 3 seconds');
  });

  it('refuses a 5,000-character command with a sentence saying how long it may be, and keeps it in the composer', async () => {
    showLogsOnFailure();
    const long = `/fleet tx ${'x'.repeat(4990)}`;
    await run(long);
    await eventually(toasts).toContainEqual(expect.stringContaining('This command is 5,000 characters long; this workspace sends at most 4,000'));
    expect((await toasts()).join(' ')).not.toMatch(/invalid input|Too big/i);
    expect(await page.getByLabel('Slash command').inputValue()).toBe(long);
    await page.getByLabel('Slash command').fill('');
  });

  it('closes a modal with Escape, as Slack does', async () => {
    showLogsOnFailure();
    await run('/fleet tx');
    const list = message(/Previous|Next|Filter/);
    await eventually(() => list.count()).toBeGreaterThan(0);
    await list.last().getByRole('button', { name: 'Filter' }).click();
    await eventually(() => modal().count()).toBe(1);
    await page.keyboard.press('Escape');
    await eventually(() => modal().count()).toBe(0);
    expect(demo.slack.views(DEMO_PEOPLE.rita.id)).toEqual([]);
  });

  it('stays readable in a phone-wide window: no sideways scrolling, the conversation and the composer in view', async () => {
    showLogsOnFailure();
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await run('/fleet balance');
      await eventually(() => message('Fleet account balance').count()).toBeGreaterThan(0);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      expect((await page.locator('#messages').boundingBox())?.width).toBeGreaterThanOrEqual(360);
      expect((await page.getByLabel('Slash command').boundingBox())?.width).toBeGreaterThanOrEqual(250);
      expect(await page.getByLabel('Slash command').isVisible()).toBe(true);
      await screenshot('phone-width');
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });
  it('answers Fabrice, whose Slack runs in French, in French: /fleet solde with amounts written the French way', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.fabrice, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/fleet solde');
    const reply = message('Solde du compte de flotte');
    await eventually(() => reply.count()).toBe(1);
    for (const [currency, amount] of Object.entries(sandbox().balances())) {
      expect(await reply.innerText()).toContain(formatAmount(amount, currency, { locale: 'fr' }));
    }
    expect(await reply.getByRole('button', { name: 'Actualiser' }).count()).toBe(1);
    await screenshot('solde-in-french');
  });

  it('lets Fabrice approve a payout in French, the amount written the French way in the approval modal', async () => {
    showLogsOnFailure();
    // Rita's first payout went to this wallet, so it is no new recipient; and the amount is below CDF's
    // dual-approval threshold: Fabrice's approval alone sends it.
    const id = await ritaRequestsMobilePayout({ phone: '243812345670', name: 'Amani Kabila', operator: 'VODACOM_MPESA', amount: '150000', currency: 'CDF' });

    await become(DEMO_PEOPLE.fabrice, { channelId: DEMO_CHANNELS.approvals.id });
    const approval = message(id);
    await eventually(() => approval.count()).toBe(1);
    // The channel's message is in the channel's language; the modal is in Fabrice's.
    await approval.getByRole('button', { name: 'Approve' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approuver ${id}`);
    expect(await modal().innerText()).toContain('150\u202f000,00 CDF');
    expect(await modal().innerText()).not.toContain('150,000.00');
    await screenshot('approval-modal-in-french');
    const before = sandbox().payouts().length;
    await modal().getByRole('button', { name: 'Approuver et envoyer' }).click();
    await eventually(() => modal().innerText()).toContain('Envoyé.');
    await modal().locator('.modal-footer').getByRole('button').first().click();
    expect(sandbox().payouts()).toHaveLength(before + 1);
    expect(sandbox().payouts().at(-1)?.body).toMatchObject({ amount: 150000, currency: 'CDF', operator: 'VODACOM_MPESA' });
  });
  it('lets Rita pick a saved recipient in the payout form as she types, which fills in the recipient and keeps the amount', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.rita, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/fleet payout mobile');
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Mobile money payout');
    await modal().getByLabel('Amount').fill('42');
    await modal().getByPlaceholder('Name or number').fill('kabila');
    const option = modal().getByRole('option', { name: /Amani Kabila/ });
    await eventually(() => option.count()).toBe(1);
    await option.click();
    await eventually(() => modal().getByLabel('Phone number').inputValue()).toBe('243812345670');
    expect(await modal().getByLabel('Recipient name').inputValue()).toBe('Amani Kabila');
    expect(await modal().getByLabel('Amount').inputValue()).toBe('42');
    await screenshot('saved-recipient');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Cancel' }).click();
    await eventually(() => modal().count()).toBe(0);
  });

  it('lets Abel, then Ada, approve Rita\'s pending payout to a new recipient from their Home tabs, which then no longer list it', async () => {
    showLogsOnFailure();
    const id = await ritaRequestsMobilePayout({ phone: '243812345672', name: 'Grace Ilunga', operator: 'AIRTEL_MONEY', amount: '75', currency: 'USD' });

    const home = page.locator('#home');
    const waiting = home.locator(`[data-block-id="home_waiting_${id}"]`);
    const openHomeOf = async (person: (typeof DEMO_PEOPLE)[keyof typeof DEMO_PEOPLE]) => {
      await page.locator('#person').selectOption(person.id);
      await eventually(() => page.locator('#role').innerText()).toBe(person.role);
      await page.locator(`[data-conversation="home"]`).click();
      await eventually(() => waiting.count()).toBe(1);
    };
    await openHomeOf(DEMO_PEOPLE.abel);
    expect(await home.innerText()).toContain('Waiting for you');
    expect(await home.innerText()).toContain('Grace Ilunga');
    await screenshot('home-waiting');

    // A first payout to Grace's wallet: Abel's approval is one of the two it needs.
    await waiting.getByRole('button', { name: 'Approve' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approve ${id}`);
    const before = sandbox().payouts().length;
    await modal().getByRole('button', { name: 'Approve', exact: true }).click();
    await eventually(() => modal().innerText()).toContain('One more approver must approve');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    expect(sandbox().payouts()).toHaveLength(before);
    // His home is published again (within the throttle's 2 seconds) without the request he approved.
    await eventually(() => waiting.count()).toBe(0);

    await openHomeOf(DEMO_PEOPLE.ada);
    await waiting.getByRole('button', { name: 'Approve' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approve ${id}`);
    await modal().getByRole('button', { name: 'Approve and send' }).click();
    await eventually(() => modal().innerText()).toContain('Sent.');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    expect(sandbox().payouts()).toHaveLength(before + 1);
    expect(sandbox().payouts().at(-1)?.body).toMatchObject({ amount: 75, currency: 'USD', operator: 'AIRTEL_MONEY' });
    await eventually(() => waiting.count()).toBe(0);
    await screenshot('home-after-approval');
  });

  it('warns Rita and Abel of a possible duplicate, and lets Abel approve it only once he ticks that he checked', async () => {
    showLogsOnFailure();
    const fields = { phone: '243812345670', name: 'Amani Kabila', operator: 'VODACOM_MPESA', amount: '31', currency: 'USD' };
    const first = await ritaRequestsMobilePayout(fields);
    await run('/fleet payout mobile');
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Mobile money payout');
    await modal().getByLabel('Phone number').fill(fields.phone);
    await modal().getByLabel('Recipient name').fill(fields.name);
    await modal().getByLabel('Country').fill('CD');
    await modal().getByLabel('Mobile money operator').selectOption(fields.operator);
    await modal().getByLabel('Amount').fill(fields.amount);
    await modal().getByLabel('Currency', { exact: true }).selectOption(fields.currency);
    await modal().getByRole('button', { name: 'Review' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Check the payout');
    expect(await modal().innerText()).toContain(`Possible duplicate: the same recipient, amount and currency as ${first}`);
    await screenshot('duplicate-review', 'duplicate-review');
    await modal().getByRole('button', { name: 'Submit for approval' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Payout requested');
    const second = /PR-[A-Z0-9]+/.exec(await modal().innerText())?.[0] ?? '';
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();

    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.approvals.id });
    const approval = message(second);
    await eventually(() => approval.innerText()).toContain('Possible duplicate');
    expect(await approval.innerText()).toContain(`/fleet payouts ${first}`);
    expect(await approval.innerText()).toContain('Rita Requester');
    await approval.getByRole('button', { name: 'Approve' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approve ${second}`);
    expect(await modal().innerText()).toContain('Possible duplicate');
    await screenshot('possible-duplicate', 'duplicate-approve');
    const before = sandbox().payouts().length;
    await modal().getByRole('button', { name: 'Approve and send' }).click();
    // Without the tick, Slack's client does not submit: nothing is sent.
    expect(await modal().locator('.modal-title').innerText()).toBe(`Approve ${second}`);
    expect(sandbox().payouts()).toHaveLength(before);
    await modal().getByLabel('I checked this is not a duplicate').check();
    await modal().getByRole('button', { name: 'Approve and send' }).click();
    await eventually(() => modal().innerText()).toContain('Sent.');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    expect(sandbox().payouts()).toHaveLength(before + 1);
    // The message tells the channel who approved it and what became of it.
    const transactionId = sandbox().payouts().at(-1)!.transactionId;
    await eventually(() => approval.innerText()).toContain(transactionId);
    expect(await approval.innerText()).toMatch(/Approved by @?Abel Approver/);
    await scrollTo(approval);
    await screenshot('duplicate-sent', 'duplicate-sent');
  });

  it('lets Rita send a 20-row bulk payout from a file, which two approvers approve for its new recipients, and sends every row once', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.rita, { channelId: DEMO_CHANNELS.treasury.id });
    const rows = Array.from({ length: 20 }, (_, index) => `mobile,2439900${String(index).padStart(5, '0')},ORANGE_MONEY,Driver ${index + 1},CD,${index + 1}.50,USD,,November`);
    const file = `kind,number,provider,name,country,amount,currency,reference,note\r\n${rows.join('\r\n')}\r\n`;
    await run('/fleet payout bulk');
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Bulk payouts');
    await modal().locator('input[type=file]').setInputFiles({ name: 'drivers.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await eventually(() => modal().innerText()).toContain('drivers.csv uploaded');
    await screenshot('bulk-form');
    await modal().getByRole('button', { name: 'Check' }).click();
    await eventually(() => modal().innerText()).toContain('Every row can be sent');
    const summary = await modal().innerText();
    for (const detail of ['20 rows', '220.00 USD', '20 new recipients']) expect(summary).toContain(detail);
    await screenshot('bulk-checked');
    await modal().getByRole('button', { name: 'Ask for approval' }).click();
    await eventually(() => modal().innerText()).toContain('waiting for approval');
    const batchId = /PB-[A-Z0-9]{6}/.exec(await modal().innerText())?.[0] ?? '';
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();

    const before = sandbox().payouts().length;
    for (const approver of [DEMO_PEOPLE.abel, DEMO_PEOPLE.ada]) {
      await become(approver, { channelId: DEMO_CHANNELS.approvals.id });
      const approval = message(batchId).first();
      await approval.getByRole('button', { name: 'Approve and send all' }).click();
      await page.locator('.confirm-overlay').getByRole('button', { name: 'Yes' }).click();
      if (approver === DEMO_PEOPLE.abel) await eventually(() => approval.innerText()).toContain('1 of 2');
    }
    await screenshot('bulk-approved');
    await expect.poll(() => sandbox().payouts().length - before, { timeout: 40_000 }).toBe(20);
    const references = sandbox().payouts().slice(before).map((payout) => (payout.body as { reference: string }).reference);
    expect(new Set(references).size).toBe(20);
    await become(DEMO_PEOPLE.rita, 'direct messages');
    await expect.poll(() => message(`${batchId} is finished`).count(), { timeout: 20_000 }).toBe(1);
    expect(await message(`${batchId} is finished`).innerText()).toContain('20 sent, 0 failed, 0 unknown, 0 not sent');
    await screenshot('bulk-results');
  }, 90_000);

  it('lets Rita schedule a payout two minutes ahead on the team\'s clock, which Abel approves now and the app sends once at its time', async () => {
    showLogsOnFailure();
    // Two minutes ahead, to the minute, on the demo team's clock (Kinshasa).
    const at = new Date(Date.now() + clockAheadMs + 2 * 60_000);
    const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Africa/Kinshasa', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
    }).formatToParts(at).map((part) => [part.type, part.value]));
    await become(DEMO_PEOPLE.rita, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/fleet payout mobile');
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Mobile money payout');
    await modal().getByLabel('Phone number').fill('243812345670');
    await modal().getByLabel('Recipient name').fill('Amani Kabila');
    await modal().getByLabel('Country').fill('CD');
    await modal().getByLabel('Mobile money operator').selectOption('VODACOM_MPESA');
    await modal().getByLabel('Amount').fill('12');
    await modal().getByLabel('Currency', { exact: true }).selectOption('USD');
    await modal().getByLabel(/^Send on/).fill(`${parts.year}-${parts.month}-${parts.day}`);
    await modal().getByLabel(/^At\b/).fill(`${parts.hour}:${parts.minute}`);
    await screenshot('scheduled-payout-form');
    await modal().getByRole('button', { name: 'Review' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Check the payout');
    // The time Rita chose, in 24-hour or 12-hour writing, whatever words surround it.
    const hour = Number(parts.hour);
    const sendTime = new RegExp(`\\b(${parts.hour}:${parts.minute}|${hour % 12 || 12}:${parts.minute}\\s?[AP]M)\\b`, 'i');
    expect(await modal().innerText()).toMatch(sendTime);
    await screenshot('scheduled-payout-review', 'scheduled-review');
    await modal().getByRole('button', { name: 'Submit for approval' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Payout requested');
    const id = /PR-[A-Z0-9]+/.exec(await modal().innerText())?.[0] ?? '';
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();

    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.approvals.id });
    const approval = message(id);
    await eventually(() => approval.innerText()).toContain('Scheduled:');
    expect(await approval.innerText()).toContain('Rita Requester');
    expect(await approval.innerText()).toMatch(sendTime);
    await approval.getByRole('button', { name: 'Approve' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approve ${id}`);
    // The approver sees when the payout will be sent before approving it ahead.
    expect(await modal().innerText()).toMatch(sendTime);
    await modal().getByRole('button', { name: /^Approve/ }).click();
    await eventually(() => modal().innerText()).toContain('Approved ahead');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    await eventually(() => approval.innerText()).toContain('Approved ahead');
    const ours = () => sandbox().payouts().filter((payout) => (payout.body as { amount?: number }).amount === 12);
    expect(ours()).toHaveLength(0);
    expect(await approval.innerText()).toMatch(/Approved by @?Abel Approver/);
    await scrollTo(approval);
    await screenshot('scheduled-payout-approved', 'scheduled-approved');
    // Rita's list says it waits for its time: nothing is moving yet.
    await become(DEMO_PEOPLE.rita, { channelId: DEMO_CHANNELS.treasury.id });
    await run('/fleet payouts');
    const listed = page.locator('article.message', { hasText: id }).last();
    await eventually(() => listed.count()).toBe(1);
    const line = (await listed.innerText()).split('\n').find((text) => text.includes(id)) ?? '';
    expect(line).toMatch(/scheduled/i);
    expect(line).not.toMatch(/sending/i);
    await become(DEMO_PEOPLE.abel, { channelId: DEMO_CHANNELS.approvals.id });

    // The app's clock reaches the payout's time (the bot reads it from the clock it was given).
    clockAheadMs += 3 * 60_000;
    await eventually(() => approval.innerText()).toMatch(/#1 .*: sent as PR-/);
    await eventually(() => ours().length).toBe(1);
    expect((ours()[0]!.body as { reference: string }).reference).toMatch(/-1$/);
    expect(await approval.innerText()).toContain('Released at its time as PR-');
    await scrollTo(approval);
    await screenshot('scheduled-payout-sent', 'scheduled-sent');
    await become(DEMO_PEOPLE.rita, 'direct messages');
    await eventually(() => message(`${id} #1 was released`).count()).toBe(1);
    expect(ours()).toHaveLength(1);
  });

  it('runs the Workflow Builder step "Request a payout" for whoever runs it: Rita confirms in her DM, an approver sends it, and the run completes with sent', async () => {
    showLogsOnFailure();
    const form = page.locator('form.workflow-step');
    const openWorkflowsAs = async (person: DemoPerson) => {
      await become(person, { channelId: DEMO_CHANNELS.treasury.id });
      await page.locator('[data-conversation="workflows"]').click();
      await eventually(() => form.locator('h2').innerText()).toBe('Run workflow · Request a payout');
    };
    const requester = form.getByLabel('requester');
    const chosenRequester = () => requester.evaluate((select) => (select as unknown as { selectedOptions: Array<{ textContent: string }> }).selectedOptions[0]?.textContent ?? '');
    // Whoever runs the workflow is its requester until they pick another: first Abel, then Rita.
    await openWorkflowsAs(DEMO_PEOPLE.abel);
    expect(await chosenRequester()).toBe('Abel Approver');
    await openWorkflowsAs(DEMO_PEOPLE.rita);
    expect(await chosenRequester()).toBe('Rita Requester');
    expect(await form.getByLabel('started_by').inputValue()).toContain('Rita Requester');
    await form.getByLabel('number').fill('243812345670');
    await form.getByLabel('amount').fill('42.50');
    await form.getByLabel('reference').fill('WF-BROWSER-1');
    await screenshot('workflow-inputs', 'workflow-form');
    await form.getByRole('button', { name: 'Run workflow' }).click();
    const run = page.locator('li.workflow-run').first();
    await eventually(() => run.innerText()).toContain('running: waiting for Rita Requester to confirm the payout in their direct messages');
    await screenshot('workflow-running', 'workflow-running');

    await become(DEMO_PEOPLE.rita, 'direct messages');
    const question = message('Requested in your name by a workflow');
    await eventually(() => question.innerText()).toContain('42.50 USD');
    expect(await question.innerText()).toContain('Requested in your name by a workflow you started');
    await scrollTo(question);
    await screenshot('workflow-confirm', 'workflow-confirm');
    await question.getByRole('button', { name: 'Confirm and request' }).click();
    // The question becomes the answer, in place.
    const confirmed = message('You confirmed the payout a workflow asked for');
    await eventually(() => confirmed.count()).toBe(1);
    expect(await question.count()).toBe(0);
    const requestId = /PR-[A-Z0-9]{6}/.exec(await confirmed.innerText())?.[0] ?? '';
    expect(requestId).not.toBe('');

    // One approver, or two for a recipient never paid (when this test runs alone).
    const before = sandbox().payouts().length;
    for (const approver of [DEMO_PEOPLE.abel, DEMO_PEOPLE.ada]) {
      await become(approver, { channelId: DEMO_CHANNELS.approvals.id });
      const approval = message(requestId);
      await eventually(() => approval.innerText()).toContain('Rita Requester');
      expect(await approval.innerText()).toContain('Requested by a workflow');
      await approval.getByRole('button', { name: 'Approve' }).click();
      await eventually(() => modal().locator('.modal-title').innerText()).toBe(`Approve ${requestId}`);
      await modal().getByRole('button', { name: /^Approve( and send)?$/ }).click();
      await eventually(() => modal().innerText()).toMatch(/Sent\.|One more approver/);
      const sent = (await modal().innerText()).includes('Sent.');
      await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
      if (sent) break;
    }
    expect(sandbox().payouts().length - before).toBe(1);
    const transactionId = sandbox().payouts().at(-1)!.transactionId;

    await page.locator('[data-conversation="workflows"]').click();
    const ended = page.locator('li.workflow-run.completed');
    await eventually(() => ended.count()).toBe(1);
    const outcome = await ended.innerText();
    for (const detail of ['for Rita Requester', 'status = sent', `transaction_id = ${transactionId}`, `payout_request_id = ${requestId}`]) expect(outcome).toContain(detail);
    await screenshot('workflow-completed', 'workflow-completed');
  });

  it('sent nothing during the run that breaks a Block Kit limit', () => {
    const checked = { messages: 0, views: 0 };
    for (const call of demo.slack.apiCalls) {
      if (call.error) continue;
      if (call.method.startsWith('chat.') && call.method !== 'chat.delete') {
        checked.messages += 1;
        expect(checkMessage(call.args.blocks ?? [], typeof call.args.text === 'string' ? call.args.text : undefined), call.method).toEqual([]);
      }
      if (call.method.startsWith('views.')) {
        checked.views += 1;
        expect(checkView(call.args.view as Record<string, unknown>), call.method).toEqual([]);
      }
    }
    // Replies through response URLs and view_submission answers are checked by the workspace as they arrive.
    expect(demo.slack.limitViolations).toEqual([]);
    expect(checked.messages).toBeGreaterThanOrEqual(2);
    expect(checked.views).toBeGreaterThanOrEqual(3);
  });

  // Runs last: it makes the bot send what real Slack would refuse.
  it('shows a block it does not know as a placeholder naming its type, and a limit violation as a banner', async () => {
    showLogsOnFailure();
    await become(DEMO_PEOPLE.rita, { channelId: DEMO_CHANNELS.treasury.id });
    demo.slack.invite(DEMO_CHANNELS.treasury.id);
    await demo.bot.app.client.chat.postMessage({
      channel: DEMO_CHANNELS.treasury.id,
      text: 'A message the page cannot fully show',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'H'.repeat(151) } },
        { type: 'rich_text', elements: [] },
        { type: 'actions', elements: [{ type: 'workflow_button', text: { type: 'plain_text', text: 'Run' } }] },
      ] as never,
    });
    const posted = message('HHHH');
    await eventually(() => posted.locator('.unknown').allInnerTexts()).toEqual([
      'Unsupported block: rich_text', 'Unsupported element: workflow_button',
    ]);
    const banner = page.locator('#violations');
    await eventually(() => banner.isVisible()).toBe(true);
    expect(await banner.innerText()).toContain('151 chars (limit 150)');
    await screenshot('placeholder-and-violation');
  });
});
