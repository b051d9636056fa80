/**
 * `/fleet runway` through the real receiver, the local Slack and the sandbox Fleet API, with the
 * ledger on: the figure each person reads is worked out here again from the sandbox's own entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, dayIn } from '../../src/core/calendar.js';
import { formatMinor, toMinor } from '../../src/core/money.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';

const FABRICE = 'U0FABRICE';

/** The pace of each currency over the 14 whole UTC days before today, from the sandbox's list. */
function expectedPace(h: Harness): Map<string, number> {
  const today = dayIn(new Date(), 'UTC');
  const first = addDays(today, -14);
  const net = new Map<string, number>();
  for (const tx of h.sandbox.transactions()) {
    const day = dayIn(new Date(tx.date), 'UTC');
    if (day < first || day >= today || tx.status !== 'Completed') continue;
    net.set(tx.currency, (net.get(tx.currency) ?? 0) + toMinor(tx.amount, tx.currency));
  }
  return new Map([...net].map(([currency, sum]) => [currency, sum / 14]));
}

describe('/fleet runway in the running bot', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { LEDGER_ENABLED: 'true', FLEET_VIEWERS: `${PEOPLE.requester},${FABRICE}` } });
    // Card funding that drains EUR faster than it comes in: EUR falls, the others do not.
    h.sandbox.addTransaction({
      currency: 'EUR',
      type: 'B2B_JIT_FUNDING',
      amount: -42_000,
      date: new Date(Date.now() - 2 * 86_400_000).toISOString(),
      status: 'Completed',
    });
    for (let tries = 0; !(await h.bot.ledger!.reader.status()).historyComplete; tries += 1) {
      if (tries > 300) throw new Error('the ledger never loaded its history');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  afterAll(async () => h?.close());

  it("answers each currency's balance, average daily net flow and days left, privately", async () => {
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'runway' });
    const reply = await h.waitForMessage(PEOPLE.requester, 'Runway: how long the money lasts');
    expect(reply.ephemeralTo).toBe(PEOPLE.requester);
    const text = blockText(reply);
    expect(text).toContain('Average daily net flow of the last 14 whole days');
    const balances = h.sandbox.balances();
    const pace = expectedPace(h);
    expect(pace.get('EUR')).toBeLessThan(0);
    expect(text).toMatch(/\*EUR\* .* EUR a day · \*\d+ days left\*, zero on /);
    for (const [currency, amount] of Object.entries(balances)) {
      const balanceMinor = toMinor(amount, currency);
      const average = pace.get(currency) ?? 0;
      const net = formatMinor(Math.round(average), currency, { locale: 'en', signed: true });
      const line = `*${currency}* ${formatMinor(balanceMinor, currency, { locale: 'en' })} · ${net} a day · `;
      expect(text).toContain(line);
      if (average >= 0) expect(text).toContain(`${line}not falling`);
      else expect(text).toMatch(new RegExp(`${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\*${Math.floor(balanceMinor / -average)} days? left\\*, zero on `));
    }
  });

  it("sends the chart to the person's DM as a PNG at least 600 pixels wide", async () => {
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'runway' });
    const dm = h.slack.directory().channels.find((channel) => channel.id.startsWith('D') && channel.name === PEOPLE.requester);
    const shared = await h.slack.waitFor(() => dm && h.slack.messages(dm.id).find((message) => message.files?.some((file) => file.name.endsWith('.png'))));
    expect(shared.text).toContain('where it goes at this pace');
    const png = h.slack.file(shared.files![0]!.id)!.bytes!;
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(600);
  });

  it('answers /fleet autonomie in French with amounts written the French way', async () => {
    await h.slack.runCommand({ userId: FABRICE, channelId: CHANNELS.treasury, text: 'autonomie' });
    const reply = await h.waitForMessage(FABRICE, 'Autonomie : combien de temps dure l’argent');
    const usd = toMinor(h.sandbox.balances().USD ?? 0, 'USD');
    expect(blockText(reply)).toContain(`*USD* ${formatMinor(usd, 'USD', { locale: 'fr' })} · `);
    expect(blockText(reply)).toContain('par jour');
  });

  it('refuses someone outside FLEET_VIEWERS before reading anything', async () => {
    const before = h.sandbox.requests.filter((request) => request.path.endsWith('/balance')).length;
    await h.slack.runCommand({ userId: PEOPLE.newcomer, channelId: CHANNELS.treasury, text: 'runway' });
    const reply = await h.slack.waitFor(() => h.visibleTo(PEOPLE.newcomer).at(-1));
    expect(reply.text).not.toContain('Runway');
    expect(h.sandbox.requests.filter((request) => request.path.endsWith('/balance')).length).toBe(before);
  });
});
