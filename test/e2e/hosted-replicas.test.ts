/**
 * Two hosted replicas on one database: every workspace's periodic work runs on one of them, each
 * answers every workspace's commands, and when the replica running a workspace's work stops, the
 * other takes it over within a few beats and its feed posts each new transaction once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalSlack, SlackMessage } from '@fleet-treasury-bot/local-slack';
import type { RunningHost } from '../../src/hosting/hosted.js';
import { blockText, CHANNELS } from '../support/bot-harness.js';
import { testPostgresUrl } from '../support/databases.js';
import { ADMIN, PARTNERS, startHostedHarness, type HostedHarness } from '../support/hosted-harness.js';

const [ALPHA, BETA] = PARTNERS;
const PLACEMENT = { beatMs: 150, goneAfterMs: 1_500 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(testPostgresUrl)('hosted workspaces on two replicas', () => {
  let h: HostedHarness;
  let second: RunningHost;
  const ws = (teamId: string): LocalSlack => h.grid.workspace(teamId);
  const textOf = (message: SlackMessage) => `${message.text}\n${blockText(message)}`;
  const keyOf = (teamId: string) => PARTNERS.find((partner) => partner.teamId === teamId)!.fleetKey;
  const feedCount = (teamId: string, reference: string) =>
    ws(teamId)
      .messages(CHANNELS.feed)
      .filter((message) => textOf(message).includes(reference)).length;
  /** Which replica runs each workspace's periodic work, once both agree on it. */
  const placed = async (hosts: RunningHost[]) => {
    for (let tries = 0; tries < 100; tries += 1) {
      const working = hosts.map((host) => host.bots.workingHere());
      const all = working.flat();
      if (all.length === PARTNERS.length && new Set(all).size === PARTNERS.length) return working;
      await sleep(100);
    }
    throw new Error(`the replicas never split the work: ${JSON.stringify(hosts.map((host) => host.bots.workingHere()))}`);
  };

  beforeAll(async () => {
    h = await startHostedHarness(testPostgresUrl!, { hostEnv: { FEED_POLL_INTERVAL_SECONDS: '5' }, replicaId: 'replica-one', placement: PLACEMENT });
    for (const partner of PARTNERS) {
      const slack = ws(partner.teamId);
      expect(await h.install(partner.teamId)).toContain('/fleet connect');
      slack.invite(CHANNELS.feed);
      for (const [text, callbackId, values, done] of [
        ['connect', 'hosting_connect', { fleet_api_key: { value: partner.fleetKey } }, 'connected to its Fleet account'],
        ['settings', 'hosting_settings', { FEED_CHANNEL_ID: { value: CHANNELS.feed }, FLEET_VIEWERS: { value: ADMIN } }, 'settings are saved'],
      ] as const) {
        await slack.runCommand({ userId: ADMIN, channelId: CHANNELS.treasury, command: '/fleet', text });
        const modal = await slack.waitFor(() => slack.views(ADMIN).find((view) => view.view.callback_id === callbackId), {
          message: `the ${callbackId} modal`,
        });
        await slack.submitView({ userId: ADMIN, viewId: modal.id, values });
        await slack.waitFor(() => slack.messages(`D${ADMIN.slice(1)}`).find((message) => message.text.includes(done)), { message: `"${done}"` });
      }
    }
    second = await h.startReplica({ replicaId: 'replica-two', placement: PLACEMENT });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('runs each workspace’s periodic work on one replica, and either replica answers either workspace', async () => {
    await placed([h.host, second]);
    for (const host of [h.host, second]) {
      for (const partner of PARTNERS) expect(host.bots.runningNow(partner.teamId), `${partner.teamId} answered on every replica`).toBeDefined();
    }
    const reference = 'ALPHA-ONE-REPLICA';
    h.sandbox.account(keyOf(ALPHA.teamId)).addTransaction({ reference });
    await ws(ALPHA.teamId).waitFor(() => feedCount(ALPHA.teamId, reference) > 0, { message: 'the new transaction in Alpha’s feed', timeoutMs: 15_000 });
    await sleep(6_000);
    expect(feedCount(ALPHA.teamId, reference)).toBe(1);
  }, 30_000);

  it('moves a stopped replica’s workspaces to the other, whose feeds then post each new transaction once', async () => {
    const [first] = await placed([h.host, second]);
    // Stop the replica that runs Alpha's work (it leaves the list of replicas as it stops).
    const [stopping, staying] = first!.includes(ALPHA.teamId) ? [h.host, second] : [second, h.host];
    await stopping.close();
    const [working] = await placed([staying]);
    expect(working!.sort()).toEqual([ALPHA.teamId, BETA.teamId].sort());

    const references = { [ALPHA.teamId]: 'ALPHA-AFTER-STOP', [BETA.teamId]: 'BETA-AFTER-STOP' };
    for (const partner of PARTNERS) h.sandbox.account(keyOf(partner.teamId)).addTransaction({ reference: references[partner.teamId] });
    h.grid.setAppUrl(`${staying.url}/slack/events`);
    for (const partner of PARTNERS) {
      await ws(partner.teamId).waitFor(() => feedCount(partner.teamId, references[partner.teamId]) > 0, {
        message: `the new transaction in ${partner.teamId}’s feed`,
        timeoutMs: 20_000,
      });
    }
    await sleep(6_000);
    for (const partner of PARTNERS) expect(feedCount(partner.teamId, references[partner.teamId])).toBe(1);
  }, 60_000);
});
