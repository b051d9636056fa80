/**
 * Hosted for many partners, end to end: two workspaces install the app through the local grid's
 * OAuth page, each binds its own Fleet account with `/fleet connect` and sets its people with
 * `/fleet settings`, then the same people's ids in both workspaces see their own partner's money
 * only; uninstalling one stops it at once and leaves the other serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalSlack } from '@fleet-treasury-bot/local-slack';
import { testPostgresUrl } from '../support/databases.js';
import { ADMIN, PARTNERS, startHostedHarness, type HostedHarness } from '../support/hosted-harness.js';

const [ALPHA, BETA] = PARTNERS;
const RITA = 'U0REQUESTER';
const NICO = 'U0NEWCOMER';
const CHANNEL = 'C0TREASURY';

describe.runIf(testPostgresUrl)('hosted for many partners', () => {
  let h: HostedHarness;
  const installedIn: string[] = [];
  const ws = (teamId: string): LocalSlack => h.grid.workspace(teamId);
  const reply = (slack: LocalSlack, userId: string, fragment: string) =>
    slack.waitFor(() => slack.messages(CHANNEL, { visibleTo: userId }).find((message) => message.text.includes(fragment)), {
      message: `a reply containing "${fragment}" for ${userId}`,
    });
  const dm = (slack: LocalSlack, userId: string, fragment: string) =>
    // A person's DM with the app is D + their id without its U, as the local workspace names it.
    slack.waitFor(() => slack.messages(`D${userId.slice(1)}`, { visibleTo: userId }).find((message) => message.text.includes(fragment)), {
      message: `a DM containing "${fragment}" to ${userId}`,
    });
  const openModal = async (slack: LocalSlack, userId: string, text: string, callbackId: string) => {
    await slack.runCommand({ userId, channelId: CHANNEL, command: '/fleet', text });
    return slack.waitFor(() => slack.views(userId).find((view) => view.view.callback_id === callbackId), { message: `the ${callbackId} modal` });
  };

  beforeAll(async () => {
    h = await startHostedHarness(testPostgresUrl!, { onInstalled: (tenant) => void installedIn.push(tenant) });
  }, 60_000);
  afterAll(async () => {
    if (process.env.HOSTED_LOGS) (await import('node:fs')).writeFileSync(process.env.HOSTED_LOGS, h?.logs.join('') ?? '');
    await h?.close();
  });

  it('installs into two workspaces from the Add to Slack page', async () => {
    for (const partner of PARTNERS) {
      expect(await h.install(partner.teamId)).toContain('/fleet connect');
      expect(ws(partner.teamId).installed).toBe(true);
    }
    expect(installedIn).toEqual(PARTNERS.map((partner) => partner.teamId));
  });

  it('answers every command of a workspace not yet connected with how to connect it, and lets only an admin connect', async () => {
    await ws(ALPHA.teamId).runCommand({ userId: RITA, channelId: CHANNEL, command: '/fleet', text: 'balance' });
    await reply(ws(ALPHA.teamId), RITA, 'not connected to a Fleet account yet');
    await ws(ALPHA.teamId).runCommand({ userId: NICO, channelId: CHANNEL, command: '/fleet', text: 'connect' });
    await reply(ws(ALPHA.teamId), NICO, 'Only a workspace admin');
    expect(ws(ALPHA.teamId).views(NICO)).toEqual([]);
  });

  it('binds each workspace to its own Fleet account, refusing a key the API refuses and storing it encrypted', async () => {
    const alpha = ws(ALPHA.teamId);
    const modal = await openModal(alpha, ADMIN, 'connect', 'hosting_connect');
    await alpha.submitView({ userId: ADMIN, viewId: modal.id, values: { fleet_api_key: { value: 'sk_not_a_key' } } });
    expect(alpha.view(modal.id)?.errors?.fleet_api_key).toContain('refused this key');
    await alpha.submitView({ userId: ADMIN, viewId: modal.id, values: { fleet_api_key: { value: ALPHA.fleetKey } } });
    await dm(alpha, ADMIN, 'connected to its Fleet account');

    const beta = ws(BETA.teamId);
    const betaModal = await openModal(beta, ADMIN, 'connect', 'hosting_connect');
    await beta.submitView({ userId: ADMIN, viewId: betaModal.id, values: { fleet_api_key: { value: BETA.fleetKey } } });
    await dm(beta, ADMIN, 'connected to its Fleet account');

    const stored = await h.host.db.forTenant(ALPHA.teamId).query<{ sealed_key: Buffer }>('SELECT sealed_key FROM fleet_connections');
    expect(stored.rows).toHaveLength(1);
    expect(Buffer.from(stored.rows[0]!.sealed_key).toString('latin1')).not.toContain(ALPHA.fleetKey);
    expect(h.logs.join('')).not.toContain(ALPHA.fleetKey);
  });

  it('keeps each workspace’s settings apart, validated by the configuration’s schema', async () => {
    const alpha = ws(ALPHA.teamId);
    const bad = await openModal(alpha, ADMIN, 'settings', 'hosting_settings');
    await alpha.submitView({ userId: ADMIN, viewId: bad.id, values: { FLEET_VIEWERS: { value: RITA }, APPROVAL_CHANNEL_ID: { value: 'treasury' } } });
    expect(alpha.view(bad.id)?.errors?.APPROVAL_CHANNEL_ID).toContain('expected a Slack channel ID');
    await alpha.submitView({ userId: ADMIN, viewId: bad.id, values: { FLEET_VIEWERS: { value: RITA }, APPROVAL_CHANNEL_ID: { value: '' } } });
    await dm(alpha, ADMIN, 'settings are saved');

    const beta = ws(BETA.teamId);
    const modal = await openModal(beta, ADMIN, 'settings', 'hosting_settings');
    await beta.submitView({ userId: ADMIN, viewId: modal.id, values: { FLEET_VIEWERS: { value: NICO } } });
    await dm(beta, ADMIN, 'settings are saved');
  });

  it('shows the same person ids each workspace’s own balance, by its own roles', async () => {
    const alphaUsd = h.sandbox.account(ALPHA.fleetKey).balances().USD!;
    const betaUsd = h.sandbox.account(BETA.fleetKey).balances().USD!;
    expect(alphaUsd).not.toBe(betaUsd);
    const alpha = ws(ALPHA.teamId);
    const beta = ws(BETA.teamId);
    await alpha.runCommand({ userId: RITA, channelId: CHANNEL, command: '/fleet', text: 'balance' });
    const alphaBalance = await reply(alpha, RITA, 'USD');
    await beta.runCommand({ userId: NICO, channelId: CHANNEL, command: '/fleet', text: 'balance' });
    const betaBalance = await reply(beta, NICO, 'USD');
    expect(JSON.stringify(alphaBalance)).toContain(usd(alphaUsd));
    expect(JSON.stringify(alphaBalance)).not.toContain(usd(betaUsd));
    expect(JSON.stringify(betaBalance)).toContain(usd(betaUsd));
    expect(JSON.stringify(betaBalance)).not.toContain(usd(alphaUsd));
    // Rita is a viewer in Alpha only.
    await beta.runCommand({ userId: RITA, channelId: CHANNEL, command: '/fleet', text: 'balance' });
    await reply(beta, RITA, 'FLEET_VIEWERS');
  });

  it('stops serving a workspace the moment it uninstalls the app, deleting its tokens, and the other goes on', async () => {
    await h.grid.uninstall(BETA.teamId);
    await expect.poll(() => h.host.botFor(BETA.teamId), { timeout: 5_000 }).toBeUndefined();
    const tokens = await h.host.db.forTenant(BETA.teamId).query('SELECT 1 FROM slack_installations UNION ALL SELECT 1 FROM fleet_connections');
    expect(tokens.rows).toEqual([]);
    const alpha = ws(ALPHA.teamId);
    const before = alpha.messages(CHANNEL, { visibleTo: RITA }).length;
    await alpha.runCommand({ userId: RITA, channelId: CHANNEL, command: '/fleet', text: 'balance' });
    await alpha.waitFor(() => alpha.messages(CHANNEL, { visibleTo: RITA }).length > before || undefined, { message: 'Alpha still answers' });
  });
});

/** How a balance writes a USD amount: 12,345.67. */
function usd(amount: number): string {
  return amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
