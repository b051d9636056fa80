/** The environment every bench gives the app: the local Slack workspace and the sandbox on loopback, everyone a viewer. */
export interface BenchAppEnv {
  botToken: string;
  signingSecret: string;
  slackApiUrl: string;
  sandbox: { url: string; apiKey: string };
  logLevel?: 'warn' | 'info';
}

export function benchAppEnv({ botToken, signingSecret, slackApiUrl, sandbox, logLevel = 'warn' }: BenchAppEnv): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: slackApiUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    FLEET_API_URL: sandbox.url,
    FLEET_API_KEY: sandbox.apiKey,
    FLEET_VIEWERS: '*',
    LOG_LEVEL: logLevel,
  };
}
