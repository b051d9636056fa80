/**
 * The browser test's shared page: the demo started in-process, Debian's Chromium on its page, and the
 * helpers every step uses to act as the demo's people (switch person, run a command, fill the payout
 * form) and to look (messages, the modal, screenshots). The steps run in order and share one demo.
 */
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, onTestFailed } from 'vitest';
import { startDemo, type Demo } from '../../../src/demo/demo.js';
import { DEMO_CHANNELS, DEMO_PEOPLE, type DemoPerson } from '../../../src/demo/people.js';
import { createLogger } from '../../../../../src/core/logger.js';
import { systemClock } from '../../../../../src/core/clock.js';
import type { Db } from '../../../../../src/store/index.js';
import { testDatabases } from '../../../../../test/support/databases.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SCREENSHOTS = 'test-output/demo';
const DOCS_SCREENSHOTS = new URL('../../../../../docs/demo/', import.meta.url);
const WRITE_DOCS_SCREENSHOTS = process.env.DEMO_DOCS_SCREENSHOTS === '1';

/** The fields of the mobile money payout form that a step fills in. */
export interface MobilePayoutFields {
  phone: string;
  name: string;
  operator: string;
  amount: string;
  currency: string;
}

export type BrowserSession = ReturnType<typeof browserSession>;

/** Starts the demo and the browser before the first step (closing both after the last) and gives the steps' helpers. */
export function browserSession() {
  let db: Db;
  let browser: Browser;
  const logs: string[] = [];
  let shots = 0;

  const session = {
    demo: undefined as unknown as Demo,
    page: undefined as unknown as Page,
    /** How far ahead of the real time the bot's clock runs; a step moves it to reach a scheduled time. */
    clockAheadMs: 0,
    sandbox: () => session.demo.bot.sandbox!,
    /** A screenshot of the page; `docs` names the one docs/demo.md shows, copied there with DEMO_DOCS_SCREENSHOTS=1. */
    screenshot: async (name: string, docs?: string) => {
      const path = `${SCREENSHOTS}/${String(++shots).padStart(2, '0')}-${name}.png`;
      await session.page.screenshot({ path });
      if (docs && WRITE_DOCS_SCREENSHOTS) {
        await mkdir(DOCS_SCREENSHOTS, { recursive: true });
        await copyFile(path, new URL(`${docs}.png`, DOCS_SCREENSHOTS));
      }
    },
    /** On failure: the bot's warnings, and a screenshot of what the page showed then. */
    showLogsOnFailure: () =>
      onTestFailed(async ({ task }) => {
        console.log(`bot logs (warn and above):\n${logs.join('')}`);
        const name = task.name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .slice(0, 60);
        await session.page.screenshot({ path: `${SCREENSHOTS}/failed-${name}.png` }).catch(() => undefined);
      }),
    message: (text: string | RegExp) => session.page.locator('article.message', { hasText: text }),
    modal: () => session.page.locator('#modal'),
    /** `expect.poll` as patient as the page's own actions: vitest gives up after one second, short for a slow machine. */
    eventually: <T>(probe: () => T | Promise<T>) => expect.poll(probe, { timeout: 10_000 }),
    scrollTo,
    run,
    become,
    ritaRequestsMobilePayout,
    ritaReviewsMobilePayout,
    submitReviewedPayout,
  };
  const { eventually, modal } = session;

  /** Scrolls a message into view; the page draws messages again as they change, so a detached one is looked up again. */
  async function scrollTo(locator: Locator): Promise<void> {
    await eventually(() =>
      locator.scrollIntoViewIfNeeded({ timeout: 2_000 }).then(
        () => true,
        () => false,
      ),
    ).toBe(true);
  }

  async function run(command: string): Promise<void> {
    await session.page.getByLabel('Slash command').fill(command);
    await session.page.getByLabel('Slash command').press('Enter');
  }

  /** Switches the page to another person and opens a channel, or their direct messages with the bot. */
  async function become(person: DemoPerson, where: { channelId: string } | 'direct messages'): Promise<void> {
    const { page } = session;
    await page.locator('#person').selectOption(person.id);
    // Their sidebar (their own DM) is drawn once the page shows their role.
    await eventually(() => page.locator('#role').innerText()).toBe(person.role);
    const conversation = where === 'direct messages' ? page.locator('#dms a') : page.locator(`[data-conversation="${where.channelId}"]`);
    await conversation.click();
    await eventually(() => conversation.getAttribute('class')).toContain('active');
  }

  /** Rita fills the mobile money form and presses Review: the review screen is open. */
  async function ritaReviewsMobilePayout(fields: MobilePayoutFields): Promise<void> {
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
  }

  /** The open review submitted for approval and its confirmation closed; the request's id. */
  async function submitReviewedPayout(): Promise<string> {
    await modal().getByRole('button', { name: 'Submit for approval' }).click();
    await eventually(() => modal().locator('.modal-title').innerText()).toBe('Payout requested');
    const id = /PR-[A-Z0-9]+/.exec(await modal().innerText())?.[0] ?? '';
    expect(id).not.toBe('');
    await modal().locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    return id;
  }

  /** Rita asks for a mobile money payout through the form, to its confirmation; the request's id. */
  async function ritaRequestsMobilePayout(fields: MobilePayoutFields): Promise<string> {
    await ritaReviewsMobilePayout(fields);
    return submitReviewedPayout();
  }

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
    const clock = { now: () => new Date(Date.now() + session.clockAheadMs), sleep: (ms: number, signal?: AbortSignal) => systemClock.sleep(ms, signal) };
    session.demo = await startDemo({ port: 0, db, activitySeconds: 0, clock, logger: createLogger({ level: 'warn', destination }) });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    session.page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    session.page.setDefaultTimeout(10_000);
    await session.page.goto(session.demo.url);
    await session.page.waitForSelector('body[data-ready]');
  });

  afterAll(async () => {
    await browser?.close();
    await session.demo?.close();
    await db?.close();
  });

  return session;
}
