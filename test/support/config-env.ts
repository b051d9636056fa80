/** The smallest environment the app starts with, and the problems `loadConfig` names for another. */
import { ConfigError, loadConfig } from '../../src/config/config.js';

export const minimal = { SLACK_BOT_TOKEN: 'xoxb-123-456-abc', SLACK_SIGNING_SECRET: 'a1b2c3d4e5f6a7b8c9d0', FLEET_API_URL: 'sandbox' };

/** The lines of the ConfigError `env` gets; fails the test when the environment is accepted. */
export function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected the configuration to be refused');
}
