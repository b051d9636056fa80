import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { EventLoopTurns } from '../../src/runtime/turns.js';
import { createSlackApp, initSlackApp } from '../../src/slack/transport/app.js';
import { startHarness } from '../support/bot-harness.js';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('start-up', () => {
  it('stops with a message naming SLACK_BOT_TOKEN when Slack refuses the token', async () => {
    await expect(startHarness({ slack: { botToken: 'xoxb-some-other-token' } })).rejects.toThrow(/^SLACK_BOT_TOKEN was refused by Slack \(invalid_auth\)/);
  });

  it('says Slack could not be reached in one short line, without a stack trace in the log', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', pretty: false, secrets: [], destination: { write: (line: string) => lines.push(line) } });
    const app = createSlackApp({
      slack: {
        botToken: 'xoxb-1-2-3',
        signingSecret: 'a1b2c3d4e5f6a7b8c9d0',
        appToken: undefined,
        apiUrl: `http://127.0.0.1:${await closedPort()}/api/`,
        teamId: undefined,
        port: 0,
        host: undefined,
      },
      logger,
      turns: new EventLoopTurns(),
    });
    const failure = await initSlackApp(app).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(/^Could not reach Slack to check SLACK_BOT_TOKEN \(fetch failed\): check the network, or SLACK_API_URL when it is set$/);
    expect(lines.join('')).not.toContain('stack');
    expect(lines.every((line) => line.length < 400)).toBe(true);
  }, 30_000);
});
