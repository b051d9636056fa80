import { App, LogLevel, type BlockAction, type ExternalSelectAction } from '@slack/bolt';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSlack, type LocalSlack } from '../../src/workspace/index.js';

const SIGNING_SECRET = 'localslacktestsigningsecret0123';
const BOT_TOKEN = 'xoxb-local-slack-test';
const APP_TOKEN = 'xapp-1-A0FLEETAPP-local-slack-test';
const RITA = 'U0REQUESTER';
const TREASURY = 'C0TREASURY';
const CITIES = ['Kinshasa', 'Kisangani', 'Lubumbashi', 'Goma'];

const pickerModal = {
  type: 'modal' as const,
  callback_id: 'city_modal',
  title: { type: 'plain_text' as const, text: 'Pick a city' },
  submit: { type: 'plain_text' as const, text: 'Send' },
  blocks: [
    {
      type: 'actions' as const,
      block_id: 'city',
      elements: [{ type: 'external_select' as const, action_id: 'pick', min_query_length: 2, placeholder: { type: 'plain_text' as const, text: 'City' } }],
    },
  ],
};

/** An app whose external select answers the typed text with matching cities; picks and typed values are recorded. */
function cityApp(app: App, seen: { typed: string[]; picked: string[]; suggestionTypes: string[] }): void {
  app.command('/fleet', async ({ ack, client, command }) => {
    await ack();
    await client.views.open({ trigger_id: command.trigger_id, view: pickerModal });
  });
  app.options<'block_suggestion'>({ action_id: 'pick', type: 'block_suggestion' }, async ({ ack, body }) => {
    seen.typed.push(body.value);
    seen.suggestionTypes.push(`${body.type}/${body.container?.type as string}/${body.view?.callback_id ?? ''}`);
    const matches = CITIES.filter((city) => city.toLowerCase().startsWith(body.value.toLowerCase()));
    await ack({ options: matches.map((city) => ({ text: { type: 'plain_text', text: city }, value: city.toLowerCase() })) });
  });
  app.action<BlockAction<ExternalSelectAction>>('pick', async ({ ack, body }) => {
    await ack();
    const picked = body.actions[0]?.selected_option;
    seen.picked.push(`${picked?.value}:${picked?.text.text}:${JSON.stringify(body.view?.state.values.city?.pick?.selected_option?.value)}`);
  });
}

describe.each([
  { mode: 'HTTP', socketMode: false },
  { mode: 'Socket Mode', socketMode: true },
])('an external select in the local Slack workspace over $mode', ({ socketMode }) => {
  let slack: LocalSlack;
  let app: App;
  const seen = { typed: [] as string[], picked: [] as string[], suggestionTypes: [] as string[] };

  beforeAll(async () => {
    slack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN, ...(socketMode ? { appToken: APP_TOKEN } : {}) });
    app = socketMode
      ? new App({ token: BOT_TOKEN, appToken: APP_TOKEN, socketMode: true, clientOptions: { slackApiUrl: slack.apiUrl }, logLevel: LogLevel.ERROR })
      : new App({ signingSecret: SIGNING_SECRET, token: BOT_TOKEN, clientOptions: { slackApiUrl: slack.apiUrl }, logLevel: LogLevel.ERROR });
    cityApp(app, seen);
    if (socketMode) {
      await app.start();
    } else {
      const server = (await app.start(0)) as Server;
      slack.setAppUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`);
    }
  });

  afterAll(async () => {
    await app?.stop();
    await slack?.close();
  });

  it('sends what the person typed as a block_suggestion, shows the options the app answers, and delivers the pick as block_actions', async () => {
    await slack.runCommand({ userId: RITA, channelId: TREASURY, text: 'cities' });
    const viewId = await slack.waitFor(() => slack.views(RITA).at(-1)?.id, { message: 'the modal to open' });

    const tooShort = await slack.suggestOptions({ userId: RITA, viewId, actionId: 'pick', value: 'k' });
    expect(tooShort).toMatchObject({ status: 0, options: [] });
    expect(seen.typed).toEqual([]);

    const suggestion = await slack.suggestOptions({ userId: RITA, viewId, actionId: 'pick', value: 'Ki' });
    expect(suggestion.status).toBe(200);
    expect(suggestion.options.map((option) => option.value)).toEqual(['kinshasa', 'kisangani']);
    expect(seen.typed).toEqual(['Ki']);
    expect(seen.suggestionTypes).toEqual(['block_suggestion/view/city_modal']);

    await slack.selectOption({ userId: RITA, viewId, actionId: 'pick', value: 'kisangani' });
    await slack.waitFor(() => seen.picked.length > 0, { message: 'the pick to reach the app' });
    expect(seen.picked).toEqual(['kisangani:Kisangani:"kisangani"']);
    await expect(slack.selectOption({ userId: RITA, viewId, actionId: 'pick', value: 'goma' })).rejects.toThrow(/no option with value "goma"/);
    expect(slack.limitViolations).toEqual([]);
  });
});
