/**
 * Opening a modal the way Slack times it. (1) Approve click → approve modal open, with every round trip
 * to Slack taking 400 ms (the local workspace's latency setting): p99, and how many of 500 clicks
 * found their `trigger_id` expired. (2) The lookups before a modal (`users.info`, on the app's
 * lookup client) while background `chat.postMessage` on the app's shared client is rate-limited:
 * how much a 429 storm adds to their p99, beside the same calls made on the shared client.
 */
import type { WebClient } from '@slack/web-api';
import { PAYOUT_ACTIONS } from '../src/slack/ids.js';
import { lookupClient } from '../src/slack/transport/app.js';
import type { PayoutFormFields } from '../src/payouts/validation.js';
import { CHANNELS, PEOPLE, startHarness, type Harness } from '../test/support/bot-harness.js';
import { percentile, round } from './stats.js';

const CLICKS = Number(process.env.BENCH_MODAL_CLICKS ?? 500);
const APPROVERS = Array.from({ length: 10 }, (_, i) => `U0BENCHAPPR${String(i).padStart(2, '0')}`);
const ROUND_TRIP_MS = 400;
const STORM_LOOKUPS = 100;

export interface ModalOpenBench {
  clicks: number;
  round_trip_ms: number;
  click_to_modal_p50_ms: number;
  click_to_modal_p99_ms: number;
  expired_triggers: number;
  lookup_p99_quiet_ms: number;
  lookup_p99_storm_ms: number;
  lookup_storm_added_p99_ms: number;
  shared_client_p99_storm_ms: number;
}

const payoutEnv = (approvers: string[]) => ({
  APPROVAL_CHANNEL_ID: CHANNELS.approvals,
  FLEET_REQUESTERS: PEOPLE.requester,
  FLEET_APPROVERS: approvers.join(','),
  FLEET_VIEWERS: [PEOPLE.requester, ...approvers].join(','),
  PAYOUT_NEW_RECIPIENT_APPROVALS: '1',
});

async function requestPayouts(h: Harness, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const fields = {
      phone: '243812345678',
      name: 'Amani Kabila',
      countryCode: 'CD',
      operator: 'VODACOM_MPESA',
      amount: String(100 + i),
      currency: 'USD',
    } as PayoutFormFields;
    const validation = await h.bot.payouts.validate('mobile_money', fields, PEOPLE.requester, 'en');
    if (!validation.ok) throw new Error(`bench payout refused: ${JSON.stringify(validation.errors)}`);
    const result = await h.bot.payouts.submit(PEOPLE.requester, validation.draft);
    if (!result.ok) throw new Error(`bench payout refused: ${result.code}`);
    ids.push(result.request.id);
  }
  await h.slack.waitFor(() => ids.every((id) => h.slack.messages(CHANNELS.approvals).some((message) => message.text.includes(id))), { timeoutMs: 60_000 });
  return ids;
}

/** One approver's clicks, one after the other: click Approve, wait for the modal (or the click's end), close it. */
async function clickRepeatedly(h: Harness, userId: string, ids: string[], clicks: number, samples: number[]): Promise<void> {
  for (let i = 0; i < clicks; i++) {
    const id = ids[i % ids.length]!;
    const message = h.slack.messages(CHANNELS.approvals).find((m) => m.text.includes(id))!;
    const opened = h.slack.apiCalls.filter((call) => call.method === 'views.open').length;
    const started = performance.now();
    await h.slack.clickButton({ userId, channelId: CHANNELS.approvals, messageTs: message.ts, actionId: PAYOUT_ACTIONS.approve });
    const view = await h.slack.waitFor(() => h.slack.views(userId)[0], { timeoutMs: 10_000 }).catch(() => undefined);
    samples.push(performance.now() - started);
    await h.slack.waitFor(() => h.slack.apiCalls.filter((call) => call.method === 'views.open').length > opened, { timeoutMs: 10_000 }).catch(() => undefined);
    if (view) await h.slack.closeView({ userId, viewId: view.id });
  }
}

async function clickToModal(): Promise<
  Pick<ModalOpenBench, 'clicks' | 'round_trip_ms' | 'click_to_modal_p50_ms' | 'click_to_modal_p99_ms' | 'expired_triggers'>
> {
  // Rate limits off: 10 approvers clicking without a pause go past views.open's Tier 4 on purpose.
  const h = await startHarness({
    env: payoutEnv(APPROVERS),
    slack: {
      latency: { medianMs: ROUND_TRIP_MS, p99Ms: ROUND_TRIP_MS },
      rateLimits: false,
      users: [PEOPLE.requester, ...APPROVERS].map((id) => ({ id, name: id.toLowerCase() })),
    },
  });
  try {
    const ids = await requestPayouts(h, 10);
    const samples: number[] = [];
    await Promise.all(APPROVERS.map((userId) => clickRepeatedly(h, userId, ids, Math.ceil(CLICKS / APPROVERS.length), samples)));
    const sorted = [...samples].sort((a, b) => a - b);
    const expired = h.slack.apiCalls.filter((call) => call.method === 'views.open' && call.error === 'expired_trigger_id').length;
    return {
      clicks: samples.length,
      round_trip_ms: ROUND_TRIP_MS,
      click_to_modal_p50_ms: round(percentile(sorted, 50), 0),
      click_to_modal_p99_ms: round(percentile(sorted, 99), 0),
      expired_triggers: expired,
    };
  } finally {
    await h.close();
  }
}

async function lookupTimes(client: WebClient, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await client.users.info({ user: PEOPLE.approver, include_locale: true });
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

async function lookupsUnderStorm(): Promise<
  Pick<ModalOpenBench, 'lookup_p99_quiet_ms' | 'lookup_p99_storm_ms' | 'lookup_storm_added_p99_ms' | 'shared_client_p99_storm_ms'>
> {
  const h = await startHarness({ env: payoutEnv([PEOPLE.approver, PEOPLE.approver2]), slack: { latency: false, rateLimits: false } });
  try {
    const lookups = lookupClient(h.bot.app);
    const quiet = await lookupTimes(lookups, STORM_LOOKUPS);
    // The storm: every background post answered 429 with Retry-After 2 s, three times over.
    h.slack.failNext('chat.postMessage', { retryAfterSeconds: 2 }, 3);
    const posts = Array.from({ length: 10 }, (_, i) => h.bot.app.client.chat.postMessage({ channel: CHANNELS.approvals, text: `background ${i}` }));
    await h.slack.waitFor(() => h.slack.apiCalls.some((call) => call.error === 'http_429'));
    // Beside them, the same lookup once on the shared client, from the storm's start: it waits for the pause.
    const [storm, shared] = await Promise.all([lookupTimes(lookups, STORM_LOOKUPS), lookupTimes(h.bot.app.client, 1)]);
    await Promise.all(posts);
    return {
      lookup_p99_quiet_ms: round(percentile(quiet, 99), 1),
      lookup_p99_storm_ms: round(percentile(storm, 99), 1),
      lookup_storm_added_p99_ms: round(Math.max(0, percentile(storm, 99) - percentile(quiet, 99)), 1),
      shared_client_p99_storm_ms: round(percentile(shared, 99), 0),
    };
  } finally {
    await h.close();
  }
}

export async function runModalOpenBench(): Promise<ModalOpenBench> {
  return { ...(await clickToModal()), ...(await lookupsUnderStorm()) };
}

export function printModalOpenBench(result: ModalOpenBench): void {
  console.log(
    `\nModal open: ${result.clicks} Approve clicks by 10 approvers, every Slack round trip ${result.round_trip_ms} ms; lookups before a modal under a 429 storm`,
  );
  console.table({
    'click → modal open': { p50_ms: result.click_to_modal_p50_ms, p99_ms: result.click_to_modal_p99_ms, expired_triggers: result.expired_triggers },
    'users.info, lookup client, quiet': { p99_ms: result.lookup_p99_quiet_ms },
    'users.info, lookup client, 429 storm': { p99_ms: result.lookup_p99_storm_ms },
    'users.info, shared app.client, 429 storm': { p99_ms: result.shared_client_p99_storm_ms },
  });
}
