/**
 * What a workspace's admin changes in hosted mode, free of Slack: binding the workspace to its Fleet
 * account (the key checked with one balance read before it is stored, encrypted) and its settings
 * (stored only once the configuration's schema accepts them). Each change raises the workspace's
 * bot version, so that every replica builds its bot again.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { FleetClient } from '../fleet/client.js';
import { FleetAuthError } from '../fleet/errors.js';
import { WorkspaceSettingsError, workspaceConfig, cleanSettings, type SettingProblems, type WorkspaceSettings } from './tenant-config.js';

/** How long the key's check may take: the modal's answer must reach Slack within 3 seconds. */
const KEY_CHECK_MS = 2_000;

export interface WorkspaceAdminOptions {
  /** The process's environment: the settings are read over it, as the workspace's bot will read them. */
  hostEnv: Record<string, string | undefined>;
  fleetUrl: string;
  logger: Logger;
  clock: Clock;
  /** Stores the key (replacing any) and raises the bot version. */
  storeKey(tenant: string, apiKey: string, userId: string): Promise<void>;
  /** Stores the settings (replacing all) and raises the bot version. */
  storeSettings(tenant: string, settings: WorkspaceSettings, userId: string): Promise<void>;
}

export type ConnectOutcome = 'connected' | 'empty' | 'refused' | 'unreachable';

export class WorkspaceAdmin {
  constructor(private readonly options: WorkspaceAdminOptions) {}

  /** Checks `apiKey` with one balance read, then stores it; a key the API refuses or could not check is not stored. */
  async connect(tenant: string, userId: string, apiKey: string): Promise<ConnectOutcome> {
    const key = apiKey.trim();
    if (key === '') return 'empty';
    const logger = this.options.logger.child({ tenant, component: 'connect' });
    const fleet = new FleetClient({
      baseUrl: this.options.fleetUrl,
      apiKey: key,
      logger,
      clock: this.options.clock,
      timeouts: { connectMs: KEY_CHECK_MS, headersMs: KEY_CHECK_MS, bodyMs: KEY_CHECK_MS },
    });
    try {
      await fleet.getBalance({ signal: AbortSignal.timeout(KEY_CHECK_MS) });
    } catch (error) {
      const outcome = error instanceof FleetAuthError ? 'refused' : 'unreachable';
      logger.info({ outcome }, 'a Fleet API key was not connected');
      return outcome;
    } finally {
      await fleet.close();
    }
    await this.options.storeKey(tenant, key, userId);
    logger.info({ by: userId }, 'workspace connected to its Fleet account');
    return 'connected';
  }

  /** Stores the settings when the schema accepts them all; otherwise changes nothing and says what is wrong with each. */
  async saveSettings(tenant: string, userId: string, values: Record<string, string>): Promise<{ problems?: SettingProblems }> {
    const settings = cleanSettings(values);
    try {
      // The same schema as the environment's; the token and key are stand-ins, checked elsewhere.
      workspaceConfig(this.options.hostEnv, settings, { botToken: 'xoxb-settings-check', fleetApiKey: 'settings-check' });
    } catch (error) {
      if (error instanceof WorkspaceSettingsError) return { problems: error.problems };
      throw error;
    }
    await this.options.storeSettings(tenant, settings, userId);
    this.options.logger.info({ tenant, by: userId, settings: Object.keys(settings) }, 'workspace settings saved');
    return {};
  }
}
