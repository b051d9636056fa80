import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NO_ACCESS_MESSAGE } from '../../src/slack/viewers.js';
import { blockText, CHANNELS, PEOPLE, SIGNING_SECRET, startHarness, type Harness } from '../support/bot-harness.js';

const BALANCE_PATH = '/api/v1/b2b/account/balance';
const TRANSACTIONS_PATH = '/api/v1/b2b/account/transactions';

function commandBody(userId: string, text: string): string {
  return new URLSearchParams({
    token: 'legacy',
    team_id: 'T0DEMO',
    team_domain: 'demo',
    channel_id: CHANNELS.treasury,
    channel_name: 'treasury',
    user_id: userId,
    user_name: 'someone',
    command: '/fleet',
    text,
    api_app_id: 'A0TEST',
    is_enterprise_install: 'false',
    response_url: 'http://127.0.0.1:9/unused',
    trigger_id: '1.2.3',
  }).toString();
}

function fleetCalls(h: Harness, path: string): number {
  return h.sandbox.requests.filter((request) => request.path === path).length;
}

describe('/fleet through the real receiver', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      env: { FLEET_VIEWERS: `${PEOPLE.requester},${PEOPLE.approver},S0TREASURY` },
      slack: { usergroups: { S0TREASURY: [PEOPLE.approver2] } },
    });
  });
  afterAll(async () => h?.close());
  afterEach(() => h.sandbox.setFault(null));

  it('answers /fleet balance with every currency, privately, with a Refresh button', async () => {
    const ack = await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'balance' });
    expect(ack.status).toBe(200);
    const reply = await h.waitForMessage(PEOPLE.requester, 'Fleet account balance');
    expect(reply.ephemeralTo).toBe(PEOPLE.requester);
    const balances = h.sandbox.balances();
    for (const currency of ['USD', 'EUR', 'CDF']) {
      expect(Object.keys(balances)).toContain(currency);
      expect(blockText(reply)).toContain(`*${currency}*`);
    }
    expect(JSON.stringify(reply.blocks)).toContain('Refresh');
    expect(h.visibleTo(PEOPLE.approver).some((m) => m.text.includes('Fleet account balance'))).toBe(false);
  });

  it('refuses a forged or stale signature with 401 before any Fleet API call', async () => {
    const before = h.sandbox.requests.length;
    const body = commandBody(PEOPLE.requester, 'balance');
    const forged = await h.slack.sendSigned(body, { secret: 'not-the-signing-secret-at-all' });
    const now = Math.floor(Date.now() / 1000);
    const staleTimestamp = now - 6 * 60;
    const staleSignature = `v0=${createHmac('sha256', SIGNING_SECRET).update(`v0:${staleTimestamp}:${body}`).digest('hex')}`;
    const stale = await h.slack.sendSigned(body, { timestamp: staleTimestamp, signature: staleSignature });
    const missing = await h.slack.sendSigned(body, { signature: '' });
    expect([forged.status, stale.status, missing.status]).toEqual([401, 401, 401]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(h.sandbox.requests.length).toBe(before);
  });

  it('acknowledges within 3 seconds while the Fleet API takes 5, then answers', async () => {
    h.sandbox.setFault({ match: { path: TRANSACTIONS_PATH }, latencyMs: 5000 });
    const started = Date.now();
    const ack = await h.slack.runCommand({ userId: PEOPLE.approver, channelId: CHANNELS.treasury, text: 'transactions 1 3' });
    expect(ack.status).toBe(200);
    expect(ack.elapsedMs).toBeLessThan(3000);
    const reply = await h.slack.waitFor(() => h.visibleTo(PEOPLE.approver).find((m) => m.text.includes('Showing 1–3')), { timeoutMs: 15_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    expect(blockText(reply)).toContain(h.sandbox.transactions()[0]!.reference);
  });

  it('pages with Next from the first page to the last, showing every transaction once and in order', async () => {
    const expected = h.sandbox.transactions().map((tx) => tx.reference);
    expect(expected.length).toBeGreaterThanOrEqual(300);
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'transactions 1 25' });
    let message = await h.waitForMessage(PEOPLE.requester, 'Showing 1–25');
    const seen: string[] = [];
    for (let page = 1; ; page += 1) {
      seen.push(...[...blockText(message).matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
      const hasNext = JSON.stringify(message.blocks).includes('"text":"Next"');
      if (!hasNext) break;
      const ts = message.ts;
      await h.slack.clickButton({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, messageTs: ts, actionId: 'transactions_page:next' });
      message = await h.slack.waitFor(() => {
        const current = h.slack.message(CHANNELS.treasury, ts);
        return current && current.text.includes(`page ${page + 1},`) ? current : undefined;
      });
    }
    expect(seen).toEqual(expected);
    expect(h.visibleTo(PEOPLE.requester).filter((m) => m.text.includes('Fleet account transactions')).length).toBe(1);
  });

  it('goes back with Previous and says which items a page shows', async () => {
    await h.slack.runCommand({ userId: PEOPLE.approver, channelId: CHANNELS.treasury, text: 'tx 3 5' });
    const message = await h.waitForMessage(PEOPLE.approver, 'Showing 11–15');
    await h.slack.clickButton({ userId: PEOPLE.approver, channelId: CHANNELS.treasury, messageTs: message.ts, actionId: 'transactions_page:previous' });
    const previous = await h.slack.waitFor(() => {
      const current = h.slack.message(CHANNELS.treasury, message.ts);
      return current?.text.includes('Showing 6–10') ? current : undefined;
    });
    expect(previous.text).toContain('page 2, 5 per page');
  });

  it('shows a non-viewer a polite refusal and no data, without calling the Fleet API', async () => {
    const before = h.sandbox.requests.length;
    await h.slack.runCommand({ userId: PEOPLE.newcomer, channelId: CHANNELS.treasury, text: 'balance' });
    await h.slack.runCommand({ userId: PEOPLE.newcomer, channelId: CHANNELS.treasury, text: 'transactions' });
    const refusal = await h.waitForMessage(PEOPLE.newcomer, "don't have access");
    expect(refusal.text).toBe(NO_ACCESS_MESSAGE);
    const seen = h.visibleTo(PEOPLE.newcomer);
    expect(seen.every((m) => !m.text.includes('Fleet account balance') && !m.text.includes('Showing'))).toBe(true);
    expect(h.sandbox.requests.length).toBe(before);
  });

  it('lets a member of a viewer user group see the balance', async () => {
    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: 'balance' });
    await h.waitForMessage(PEOPLE.approver2, 'Fleet account balance');
  });

  it('names what went wrong when the Fleet API keeps failing', async () => {
    h.sandbox.setFault({ match: { path: TRANSACTIONS_PATH }, status: 503 });
    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: 'tx' });
    const reply = await h.waitForMessage(PEOPLE.approver2, 'Could not read the transactions', CHANNELS.treasury);
    expect(reply.text).toContain('The Fleet API is unavailable right now');
    expect(reply.text).not.toMatch(/at .*\.ts:\d+/);
  });

  it('shares the balance in the channel only when asked, naming who shared it', async () => {
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'bal' });
    const mine = await h.slack.waitFor(() =>
      h
        .visibleTo(PEOPLE.requester)
        .filter((m) => m.text.includes('Fleet account balance') && m.ephemeralTo)
        .at(-1),
    );
    const fields = (message: typeof mine) =>
      (message.blocks as Array<{ fields?: Array<{ text: string }> }>).flatMap((block) => block.fields?.map((field) => field.text) ?? []);
    const seen = fields(mine);
    // Money moves between reading and sharing: the channel must still get the figures the person saw.
    h.sandbox.addTransaction({ currency: 'USD', amount: 1234.56 });
    // Someone else refreshes: the app now holds the newer figures too.
    await h.slack.runCommand({ userId: PEOPLE.approver, channelId: CHANNELS.treasury, text: 'bal' });
    const theirs = await h.slack.waitFor(() =>
      h
        .visibleTo(PEOPLE.approver)
        .filter((m) => m.text.includes('Fleet account balance') && m.ephemeralTo)
        .at(-1),
    );
    await h.slack.clickButton({ userId: PEOPLE.approver, channelId: CHANNELS.treasury, messageTs: theirs.ts, actionId: 'balance_refresh' });
    const refreshed = await h.slack.waitFor(() => {
      const current = h.slack.message(CHANNELS.treasury, theirs.ts);
      return current && JSON.stringify(fields(current)) !== JSON.stringify(seen) ? current : undefined;
    });
    expect(fields(refreshed)).not.toEqual(seen);
    const balanceCalls = fleetCalls(h, BALANCE_PATH);
    await h.slack.clickButton({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, messageTs: mine.ts, actionId: 'balance_share' });
    const shared = await h.slack.waitFor(() => h.visibleTo(PEOPLE.newcomer).find((m) => m.text.includes('Fleet account balance')));
    expect(shared.ephemeralTo).toBeUndefined();
    expect(blockText(shared)).toContain(`shared by <@${PEOPLE.requester}>`);
    expect(fields(shared)).toEqual(seen);
    expect(seen.some((text) => text.startsWith('*USD*'))).toBe(true);
    expect(fleetCalls(h, BALANCE_PATH)).toBe(balanceCalls);
  });

  it('refuses to share figures edited in the button, posting nothing in the channel', async () => {
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'bal' });
    const mine = await h.slack.waitFor(() =>
      h
        .visibleTo(PEOPLE.requester)
        .filter((m) => m.text.includes('Fleet account balance') && m.ephemeralTo)
        .at(-1),
    );
    const before = h.slack.messages(CHANNELS.treasury).filter((m) => !m.ephemeralTo).length;
    const forged = Buffer.from(JSON.stringify({ balances: { USD: 99_999_999 }, readAt: new Date().toISOString() })).toString('base64url');
    await h.slack.clickButton({
      userId: PEOPLE.requester,
      channelId: CHANNELS.treasury,
      messageTs: mine.ts,
      actionId: 'balance_share',
      value: `${forged}.not-our-seal`,
    });
    await h.waitForMessage(PEOPLE.requester, 'can no longer be shared');
    expect(h.slack.messages(CHANNELS.treasury).filter((m) => !m.ephemeralTo).length).toBe(before);
  });

  it('shares one upstream balance call between concurrent lookups', async () => {
    const people = [PEOPLE.requester, PEOPLE.approver, PEOPLE.approver2];
    for (const userId of people) {
      await h.slack.runCommand({ userId, channelId: CHANNELS.treasury, text: 'balance' });
      await h.waitForMessage(userId, 'Fleet account balance');
    }
    h.sandbox.setFault({ match: { path: BALANCE_PATH }, latencyMs: 300 });
    const before = fleetCalls(h, BALANCE_PATH);
    await Promise.all(
      people.map((userId) =>
        h.slack.clickButton({
          userId,
          channelId: CHANNELS.treasury,
          messageTs: h.visibleTo(userId).find((m) => m.text.includes('Fleet account balance') && m.ephemeralTo)!.ts,
          actionId: 'balance_refresh',
        }),
      ),
    );
    await h.slack.waitFor(() => fleetCalls(h, BALANCE_PATH) > before);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(fleetCalls(h, BALANCE_PATH) - before).toBe(1);
  });

  it('explains what it can do for help and for an unknown subcommand', async () => {
    await h.slack.runCommand({ userId: PEOPLE.newcomer, channelId: CHANNELS.treasury, text: 'launch <!channel>' });
    const reply = await h.waitForMessage(PEOPLE.newcomer, "I don't know");
    expect(reply.text).toContain('`launch`');
    // A newcomer has no access to account data or payouts: help lists only what they may use.
    expect(reply.text).toContain('/fleet language');
    expect(reply.text).not.toContain('/fleet balance');
  });

  it('lists every subcommand a viewer may use in /fleet help, help itself last', async () => {
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'help' });
    const reply = await h.waitForMessage(PEOPLE.requester, 'Here is what I can do');
    const usages = [...reply.text.matchAll(/^• `(\/fleet \w+)/gm)].map((match) => match[1]);
    expect(usages).toEqual([
      '/fleet balance',
      '/fleet runway',
      '/fleet transactions',
      '/fleet feed',
      '/fleet ledger',
      '/fleet export',
      '/fleet reconcile',
      '/fleet reconcile',
      '/fleet digest',
      '/fleet language',
      '/fleet help',
    ]);
  });

  it('answers the names of built-in object properties with the help, as unknown words', async () => {
    for (const word of ['constructor', '__proto__']) {
      await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: word });
      const reply = await h.waitForMessage(PEOPLE.requester, `I don't know \`${word}\``);
      expect(reply.text).toContain('/fleet balance');
    }
  });

  it('never writes the API key, bot token or signing secret to its logs', () => {
    const all = h.logs.join('\n');
    expect(h.logs.length).toBeGreaterThan(10);
    for (const secret of [h.sandbox.apiKey, 'xoxb-1111-2222-harnessbottoken', SIGNING_SECRET]) {
      expect(all).not.toContain(secret);
    }
  });
});
