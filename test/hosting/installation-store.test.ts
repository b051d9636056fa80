import type { Installation } from '@slack/bolt';
import { InstallProvider } from '@slack/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_INSTALL_REFUSED, SlackInstallationStore } from '../../src/hosting/installation-store.js';
import { KeyVault } from '../../src/hosting/key-vault.js';
import type { Db } from '../../src/store/index.js';
import { testDatabases } from '../support/databases.js';
import { kekEntry, newTeamId, ringOf } from './vault-fixtures.js';

/** An Installation as InstallProvider builds it from oauth.v2.access, with token rotation on. */
function installationOf(teamId: string, botToken: string, expiresAt: number): Installation<'v2', false> {
  return {
    team: { id: teamId, name: 'Acme Payouts' },
    enterprise: undefined,
    user: { token: undefined, scopes: undefined, id: 'U0INSTALLER' },
    bot: { token: botToken, refreshToken: `xoxe-1-refresh-${botToken.slice(-6)}`, expiresAt, scopes: ['commands', 'chat:write'], id: 'B0BOT', userId: 'U0BOT' },
    tokenType: 'bot',
    isEnterpriseInstall: false,
    appId: 'A0APP',
    authVersion: 'v2',
  };
}

describe.each(testDatabases())('the Slack installation store on $name', ({ open }) => {
  let db: Db;
  let store: SlackInstallationStore;
  beforeAll(async () => {
    db = await open();
    store = new SlackInstallationStore({ db, vault: new KeyVault({ db, keyRing: ringOf(kekEntry('k1')) }) });
  });
  afterAll(async () => {
    await db?.close();
  });

  const row = async (tenant: string) =>
    (
      await db.query<{
        bot_user_id: string;
        bot_id: string;
        app_id: string;
        scopes: string;
        sealed: Uint8Array;
        token_expires_at: Date | null;
        installed_at: Date;
        updated_at: Date;
      }>('SELECT * FROM slack_installations WHERE tenant_id = $1', [tenant])
    ).rows[0];

  it('gives back the installation it stored, with the tokens readable by no one looking at the row', async () => {
    const tenant = newTeamId();
    const installation = installationOf(tenant, 'xoxe.xoxb-1-AAAAAAfirst', 1_900_000_000);
    await store.storeInstallation(installation);
    expect(await store.fetchInstallation({ teamId: tenant, enterpriseId: undefined, isEnterpriseInstall: false })).toEqual(installation);
    const stored = await row(tenant);
    expect(stored).toMatchObject({ bot_user_id: 'U0BOT', bot_id: 'B0BOT', app_id: 'A0APP', scopes: 'commands,chat:write' });
    expect(stored!.token_expires_at?.toISOString()).toBe(new Date(1_900_000_000_000).toISOString());
    const sealed = Buffer.from(stored!.sealed).toString('latin1');
    expect(sealed).not.toContain('xoxb');
    expect(sealed).not.toContain('refresh');
  });

  it('replaces the tokens when InstallProvider stores rotated ones, keeping when it was installed', async () => {
    const tenant = newTeamId();
    await store.storeInstallation(installationOf(tenant, 'xoxe.xoxb-1-AAAAAAfirst', 1_900_000_000));
    const before = await row(tenant);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const rotated = installationOf(tenant, 'xoxe.xoxb-1-BBBBBBsecond', 1_900_043_200);
    await store.storeInstallation(rotated);
    const fetched = await store.fetchInstallation({ teamId: tenant, enterpriseId: undefined, isEnterpriseInstall: false });
    expect(fetched.bot).toMatchObject({ token: 'xoxe.xoxb-1-BBBBBBsecond', refreshToken: 'xoxe-1-refresh-second', expiresAt: 1_900_043_200 });
    const after = await row(tenant);
    expect(after!.token_expires_at?.toISOString()).toBe(new Date(1_900_043_200_000).toISOString());
    expect(after!.installed_at.toISOString()).toBe(before!.installed_at.toISOString());
    expect(after!.updated_at.getTime()).toBeGreaterThan(before!.updated_at.getTime());
  });

  it('keeps each workspace to its own installation', async () => {
    const [a, b] = [newTeamId(), newTeamId()];
    await store.storeInstallation(installationOf(a, 'xoxb-token-of-a', 1_900_000_000));
    await store.storeInstallation(installationOf(b, 'xoxb-token-of-b', 1_900_000_000));
    expect((await store.fetchInstallation({ teamId: a, enterpriseId: undefined, isEnterpriseInstall: false })).bot?.token).toBe('xoxb-token-of-a');
    expect((await store.fetchInstallation({ teamId: b, enterpriseId: undefined, isEnterpriseInstall: false })).bot?.token).toBe('xoxb-token-of-b');
  });

  it('fails authorization for a workspace it has no installation of, as InstallProvider expects', async () => {
    const tenant = newTeamId();
    await expect(store.fetchInstallation({ teamId: tenant, enterpriseId: undefined, isEnterpriseInstall: false })).rejects.toThrow(
      `no Slack installation for workspace ${tenant}`,
    );
    const provider = new InstallProvider({ clientId: '1.2', clientSecret: 'not-used', stateSecret: 'not-used', installationStore: store });
    await expect(provider.authorize({ teamId: tenant, enterpriseId: undefined, isEnterpriseInstall: false })).rejects.toMatchObject({
      code: 'slack_oauth_installer_authorization_error',
    });
  });

  it('lets InstallProvider authorize with the stored bot token', async () => {
    const tenant = newTeamId();
    // Far from expiry, so that authorize does not try to refresh it over the network.
    await store.storeInstallation(installationOf(tenant, 'xoxe.xoxb-1-CCCCCCthird', Math.floor(Date.now() / 1000) + 86_400));
    const provider = new InstallProvider({ clientId: '1.2', clientSecret: 'not-used', stateSecret: 'not-used', installationStore: store });
    expect(await provider.authorize({ teamId: tenant, enterpriseId: 'E0ORG', isEnterpriseInstall: false })).toMatchObject({
      botToken: 'xoxe.xoxb-1-CCCCCCthird',
      botUserId: 'U0BOT',
      teamId: tenant,
    });
  });

  it('refuses an org-wide Enterprise Grid install, and stores nothing', async () => {
    const org: Installation<'v2', true> = {
      team: undefined,
      enterprise: { id: 'E0ORG', name: 'Acme Group' },
      user: { token: undefined, scopes: undefined, id: 'U0ADMIN' },
      bot: { token: 'xoxb-org-token', scopes: ['commands'], id: 'B0BOT', userId: 'U0BOT' },
      isEnterpriseInstall: true,
      appId: 'A0APP',
      enterpriseUrl: 'https://acme.enterprise.slack.com/',
      authVersion: 'v2',
    };
    const count = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM slack_installations')).rows[0]!.n;
    const before = await count();
    await expect(store.storeInstallation(org)).rejects.toThrow(ORG_INSTALL_REFUSED);
    await expect(store.fetchInstallation({ teamId: undefined, enterpriseId: 'E0ORG', isEnterpriseInstall: true })).rejects.toThrow(ORG_INSTALL_REFUSED);
    expect(await count()).toBe(before);
  });

  it('forgets an installation on delete', async () => {
    const tenant = newTeamId();
    await store.storeInstallation(installationOf(tenant, 'xoxb-to-delete', 1_900_000_000));
    await store.deleteInstallation({ teamId: tenant, enterpriseId: undefined, isEnterpriseInstall: false });
    expect(await row(tenant)).toBeUndefined();
    await expect(store.fetchInstallation({ teamId: tenant, enterpriseId: undefined, isEnterpriseInstall: false })).rejects.toThrow('no Slack installation');
  });
});
