/** What the Slack listeners share: the account reader, access checks, the surface, the logger. */
import type { RespondFn, SlashCommand } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { AccountReader } from '../account/account-reader.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { AccessControl } from './access.js';
import type { Surface } from './views/common.js';
import type { HelpEntry } from './views/help.js';

export interface SlackContext {
  account: AccountReader;
  access: AccessControl;
  accessLists: Config['access'];
  surface: Surface;
  logger: Logger;
  /** How long one interactive read of the Fleet API may take before the person is told it failed. */
  readTimeoutMs: number;
}

/** A `/fleet <name> …` handler, called after the command was acknowledged. */
export interface Subcommand {
  help: HelpEntry[];
  run(input: { command: SlashCommand; args: string[]; respond: RespondFn; client: WebClient }): Promise<void>;
}
