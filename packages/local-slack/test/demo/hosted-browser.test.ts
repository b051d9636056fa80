/**
 * `npm run demo -- --hosted` played in Debian's Chromium: the admin of each partner's workspace adds
 * the app from its Add to Slack page through the local grid's consent page, connects the partner's
 * Fleet account by pasting its key into `/fleet connect`, makes Rita a viewer with `/fleet settings`,
 * and Rita's `/fleet balance` then shows that partner's money and not the other's. Screenshots go to
 * test-output/hosted-demo/; with DEMO_DOCS_SCREENSHOTS=1 the consent page and the two balances are
 * written to docs/demo/ as well. Needs Postgres (TEST_DATABASE_URL), as the hosted demo does.
 */
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { HOSTED_ADMIN, hostedRole, startHostedDemo, type HostedDemo, type HostedPartner } from '../../src/demo/hosted-demo.js';
import { DEMO_BOT_CHANNELS, DEMO_CHANNELS, DEMO_PEOPLE } from '../../src/demo/people.js';
import { createLogger } from '../../../../src/core/logger.js';
import { testPostgresUrl } from '../../../../test/support/databases.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser/session.js';

const SCREENSHOTS = 'test-output/hosted-demo';
const DOCS_SCREENSHOTS = new URL('../../../../docs/demo/', import.meta.url);
const WRITE_DOCS_SCREENSHOTS = process.env.DEMO_DOCS_SCREENSHOTS === '1';
const RITA = DEMO_PEOPLE.rita;

describe.runIf(testPostgresUrl)('the hosted demo in a real browser', () => {
  let demo: HostedDemo;
  let browser: Browser;
  let page: Page;
  const logs: string[] = [];
  const eventually = <T>(probe: () => T | Promise<T>) => expect.poll(probe, { timeout: 10_000 });
  const modal = () => page.locator('#modal');

  async function screenshot(name: string, docs?: string): Promise<void> {
    const path = `${SCREENSHOTS}/${name}.png`;
    await page.screenshot({ path });
    if (docs && WRITE_DOCS_SCREENSHOTS) {
      await mkdir(DOCS_SCREENSHOTS, { recursive: true });
      await copyFile(path, new URL(`${docs}.png`, DOCS_SCREENSHOTS));
    }
  }
  const showLogsOnFailure = () =>
    onTestFailed(async ({ task }) => {
      console.log(`hosted demo logs (warn and above):\n${logs.join('')}`);
      await page
        .screenshot({
          path: `${SCREENSHOTS}/failed-${task.name
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')
            .slice(0, 60)}.png`,
        })
        .catch(() => undefined);
    });

  /** Opens the partner's workspace page as `person`, in #treasury. */
  async function openWorkspaceAs(partner: HostedPartner, person: { id: string }): Promise<void> {
    if (!page.url().startsWith(partner.pageUrl)) {
      await page.goto(partner.pageUrl);
      await page.waitForSelector('body[data-ready]');
    }
    await page.locator('#person').selectOption(person.id);
    await eventually(() => page.locator('#role').innerText()).toBe(hostedRole(person.id));
    const treasury = page.locator(`[data-conversation="${DEMO_CHANNELS.treasury.id}"]`);
    await treasury.click();
    await eventually(() => treasury.getAttribute('class')).toContain('active');
  }

  async function run(command: string): Promise<void> {
    await page.getByLabel('Slash command').fill(command);
    await page.getByLabel('Slash command').press('Enter');
  }

  beforeAll(async () => {
    await rm(SCREENSHOTS, { recursive: true, force: true });
    await mkdir(SCREENSHOTS, { recursive: true });
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString());
        done();
      },
    });
    demo = await startHostedDemo({ databaseUrl: testPostgresUrl!, port: 0, logger: createLogger({ level: 'warn', destination }) });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.setDefaultTimeout(10_000);
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });

  it('installs into each partner’s workspace from the Add to Slack page, the admin picked on the consent page', async () => {
    showLogsOnFailure();
    for (const partner of demo.partners) {
      await page.goto(demo.installUrl);
      await page.getByRole('link', { name: 'Add to Slack' }).click();
      await page.locator('#team').selectOption(partner.teamId);
      await page.locator('#user').selectOption(HOSTED_ADMIN.id);
      await page.locator('#switch').click();
      await eventually(() => page.locator('h1').innerText()).toBe(`Fleet Treasury is requesting permission to access the ${partner.teamName} Slack workspace`);
      if (partner === demo.partners[0]) await screenshot('01-consent', 'hosted-consent');
      await page.locator('#allow').click();
      await eventually(() => page.locator('h1').innerText()).toBe(`Fleet Treasury is installed in ${partner.teamName}`);
      expect(demo.grid.workspace(partner.teamId).installed).toBe(true);
    }
    // The demo invited the bot into the channels it posts to, in each workspace.
    for (const partner of demo.partners) {
      const { botUserId, channels } = demo.grid.workspace(partner.teamId).directory();
      expect(channels.filter((channel) => channel.id.startsWith('C') && channel.members?.includes(botUserId)).map((channel) => channel.id)).toEqual(
        DEMO_BOT_CHANNELS,
      );
    }
  });

  it('connects each workspace to its own Fleet account, and Rita sees only her partner’s balance', async () => {
    showLogsOnFailure();
    const shown: string[] = [];
    for (const [index, partner] of demo.partners.entries()) {
      await openWorkspaceAs(partner, HOSTED_ADMIN);
      await run('/fleet connect');
      await eventually(() => modal().locator('.modal-title').innerText()).toBe('Connect Fleet');
      await modal().getByLabel('Fleet API key').fill(partner.fleetKey);
      await modal().getByRole('button', { name: 'Connect' }).click();
      await eventually(() => modal().isVisible()).toBe(false);

      await run('/fleet settings');
      await eventually(() => modal().locator('.modal-title').innerText()).toBe('Workspace settings');
      await modal()
        .getByLabel(/^FLEET_VIEWERS/)
        .fill(RITA.id);
      await modal().getByRole('button', { name: 'Save' }).click();
      await eventually(() => modal().isVisible()).toBe(false);

      await openWorkspaceAs(partner, RITA);
      await run('/fleet balance');
      const balance = page.locator('article.message', { hasText: 'Fleet account balance' }).last();
      await eventually(() => balance.isVisible()).toBe(true);
      await screenshot(`0${index + 2}-balance-${partner.teamId}`, `hosted-balance-${index === 0 ? 'alpha' : 'beta'}`);
      shown.push(await balance.innerText());
    }
    const [alphaUsd, betaUsd] = demo.partners.map((partner) => usd(demo.sandbox.account(partner.fleetKey).balances().USD!));
    expect(alphaUsd).not.toBe(betaUsd);
    expect(shown[0]).toContain(alphaUsd);
    expect(shown[0]).not.toContain(betaUsd);
    expect(shown[1]).toContain(betaUsd);
    expect(shown[1]).not.toContain(alphaUsd);
    expect(logs.join('')).not.toContain(demo.partners[0]!.fleetKey);
  });
});

/** How a balance writes a USD amount: 12,345.67. */
function usd(amount: number): string {
  return amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
