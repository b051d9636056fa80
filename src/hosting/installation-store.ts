/**
 * Where hosted mode keeps each workspace's Slack installation: the InstallationStore of @slack/oauth,
 * one row per workspace, the Installation (tokens and refresh tokens included) sealed whole.
 *
 * Workspace installs only: an org-wide Enterprise Grid install is refused, since a tenant is one
 * workspace (its team id) and an org install would serve many under one token. Such an org installs
 * the app into each of its workspaces instead.
 */
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import { systemClock, type Clock } from '../core/clock.js';
import type { Db } from '../store/db.js';
import type { KeyVault } from './key-vault.js';
import { inTenant } from './tenant-scope.js';

const PURPOSE = 'slack-installation';

export const ORG_INSTALL_REFUSED = 'org-wide (Enterprise Grid) installs are not supported: install the app into each workspace of the org instead';

export interface SlackInstallationStoreOptions {
  db: Db;
  vault: KeyVault;
  clock?: Clock;
}

export class SlackInstallationStore implements InstallationStore {
  private readonly db: Db;
  private readonly vault: KeyVault;
  private readonly clock: Clock;

  constructor(options: SlackInstallationStoreOptions) {
    this.db = options.db;
    this.vault = options.vault;
    this.clock = options.clock ?? systemClock;
  }

  /** Saves a new install, a reinstall or rotated tokens (InstallProvider stores the refreshed Installation again). */
  async storeInstallation<AuthVersion extends 'v1' | 'v2'>(installation: Installation<AuthVersion, boolean>): Promise<void> {
    if (installation.isEnterpriseInstall) throw new Error(ORG_INSTALL_REFUSED);
    const tenant = installation.team?.id;
    if (!tenant) throw new Error('the Slack installation names no workspace (team id)');
    const sealed = await this.vault.seal(tenant, PURPOSE, JSON.stringify(installation));
    const bot = installation.bot;
    const now = this.clock.now();
    await inTenant(this.db, tenant, (tx) =>
      tx.query(
        `INSERT INTO slack_installations (tenant_id, bot_user_id, bot_id, app_id, scopes, sealed, token_expires_at, installed_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
         ON CONFLICT (tenant_id) DO UPDATE SET bot_user_id = excluded.bot_user_id, bot_id = excluded.bot_id, app_id = excluded.app_id,
           scopes = excluded.scopes, sealed = excluded.sealed, token_expires_at = excluded.token_expires_at, updated_at = excluded.updated_at`,
        [
          tenant,
          bot?.userId ?? '',
          bot?.id ?? '',
          installation.appId ?? '',
          (bot?.scopes ?? []).join(','),
          sealed,
          bot?.expiresAt === undefined ? null : new Date(bot.expiresAt * 1000),
          now,
        ],
      ),
    );
  }

  /** The workspace's Installation; throws when there is none, as InstallProvider#authorize expects (it fails the request). */
  async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation<'v1' | 'v2', boolean>> {
    const tenant = teamOf(query);
    const row = await inTenant(this.db, tenant, async (tx) => {
      const { rows } = await tx.query<{ sealed: Buffer | Uint8Array }>('SELECT sealed FROM slack_installations WHERE tenant_id = $1', [tenant]);
      return rows[0];
    });
    if (!row) throw new Error(`no Slack installation for workspace ${tenant}`);
    const opened = await this.vault.open(tenant, PURPOSE, row.sealed);
    return JSON.parse(opened.toString('utf8')) as Installation<'v1' | 'v2', boolean>;
  }

  /** Forgets the workspace's installation (its tokens); nothing happens when there is none. */
  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    const tenant = teamOf(query);
    await inTenant(this.db, tenant, (tx) => tx.query('DELETE FROM slack_installations WHERE tenant_id = $1', [tenant]));
  }
}

function teamOf(query: InstallationQuery<boolean>): string {
  if (query.isEnterpriseInstall) throw new Error(ORG_INSTALL_REFUSED);
  if (!query.teamId) throw new Error('the installation query names no workspace (team id)');
  return query.teamId;
}
