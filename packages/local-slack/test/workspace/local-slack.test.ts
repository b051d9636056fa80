import { App, LogLevel, type SlackViewAction } from '@slack/bolt';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSlack, type LocalSlack } from '../../src/workspace/index.js';

const SIGNING_SECRET = 'localslacktestsigningsecret0123';
const BOT_TOKEN = 'xoxb-local-slack-test';
const APP_TOKEN = 'xapp-1-A0FLEETAPP-local-slack-test';
const RITA = 'U0REQUESTER';
const ABEL = 'U0APPROVER';
const TREASURY = 'C0TREASURY';

const amountModal = (title = 'Request payout') => ({
  type: 'modal' as const,
  callback_id: 'payout_modal',
  private_metadata: 'request-1',
  title: { type: 'plain_text' as const, text: title },
  submit: { type: 'plain_text' as const, text: 'Send' },
  blocks: [
    {
      type: 'input' as const,
      block_id: 'amount',
      label: { type: 'plain_text' as const, text: 'Amount' },
      element: { type: 'plain_text_input' as const, action_id: 'value' },
    },
    {
      type: 'input' as const,
      block_id: 'currency',
      label: { type: 'plain_text' as const, text: 'Currency' },
      element: {
        type: 'static_select' as const,
        action_id: 'value',
        initial_option: { text: { type: 'plain_text' as const, text: 'USD' }, value: 'USD' },
        options: ['USD', 'EUR'].map((code) => ({ text: { type: 'plain_text' as const, text: code }, value: code })),
      },
    },
  ],
});

describe('the local Slack workspace with a Bolt app in HTTP mode', () => {
  let slack: LocalSlack;
  let app: App;
  let clockOffsetMs = 0;
  const submissions: SlackViewAction[] = [];
  const apiErrors: string[] = [];
  const responseErrors: string[] = [];
  const staleCalls: string[] = [];
  const undeclaredCommands: string[] = [];

  beforeAll(async () => {
    slack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN, now: () => Date.now() + clockOffsetMs });
    slack.invite(TREASURY);
    app = new App({ signingSecret: SIGNING_SECRET, token: BOT_TOKEN, clientOptions: { slackApiUrl: slack.apiUrl }, logLevel: LogLevel.ERROR });

    // Listened for by the app but declared in no manifest: Slack never sends it.
    app.command('/feet', async ({ command, ack }) => {
      undeclaredCommands.push(command.text);
      await ack();
    });
    app.command('/fleet', async ({ command, ack, respond, client }) => {
      await ack();
      if (command.text === 'hello') {
        await respond({
          text: 'Hello there',
          blocks: [
            { type: 'section', text: { type: 'mrkdwn', text: 'Hello there' } },
            {
              type: 'actions',
              block_id: 'greeting',
              elements: [{ type: 'button', action_id: 'wave', value: 'wave-1', text: { type: 'plain_text', text: 'Wave' } }],
            },
          ],
        });
      } else if (command.text === 'build') {
        await respond({ text: 'Building…' });
        await respond({ text: 'Built', replace_original: true });
        await respond({ text: 'Built again', delete_original: true }).catch((error: Error) => responseErrors.push(error.message));
      } else if (command.text === 'modal') {
        await client.views.open({ trigger_id: command.trigger_id, view: amountModal() });
      } else if (command.text === 'slow modal') {
        clockOffsetMs += 3_500; // the person waited: the trigger is older than Slack allows
        await client.views.open({ trigger_id: command.trigger_id, view: amountModal() }).catch((error: { data?: { error?: string } }) => {
          apiErrors.push(error.data?.error ?? 'unknown');
        });
      } else if (command.text === 'modal twice') {
        const opened = await client.views.open({ trigger_id: command.trigger_id, view: amountModal() });
        const viewId = opened.view?.id ?? '';
        const outcome = (call: Promise<unknown>) =>
          call.then(
            () => 'ok',
            (error: { data?: { error?: string } }) => error.data?.error ?? 'unknown',
          );
        const reuse = await outcome(client.views.open({ trigger_id: command.trigger_id, view: amountModal() }));
        await client.views.update({ view_id: viewId, hash: opened.view?.hash, view: amountModal('First update') });
        const stale = await outcome(client.views.update({ view_id: viewId, hash: opened.view?.hash, view: amountModal('Stale update') }));
        staleCalls.push(reuse, stale);
      } else if (command.text === 'oversized') {
        await client.chat.postMessage({
          channel: command.channel_id,
          text: 'Too long',
          blocks: [{ type: 'header', text: { type: 'plain_text', text: 'H'.repeat(151) } }],
        });
      }
    });
    app.action('wave', async ({ ack, respond, body }) => {
      await ack();
      const value = body.type === 'block_actions' && body.actions[0]?.type === 'button' ? body.actions[0].value : '';
      await respond({ replace_original: true, text: `You waved (${value})` });
    });
    app.view('payout_modal', async ({ ack, view, body }) => {
      submissions.push(body);
      const amount = view.state.values.amount?.value?.value ?? '';
      if (amount === 'more') await ack({ response_action: 'update', view: amountModal('More details') });
      else if (amount === 'stray') await ack({ response_action: 'errors', errors: { amount_block: 'Enter a whole number' } });
      else if (!/^\d+$/.test(amount)) await ack({ response_action: 'errors', errors: { amount: 'Enter a whole number' } });
      else await ack({ response_action: 'clear' });
    });

    const server = (await app.start(0)) as Server;
    slack.setAppUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`);
  });

  afterAll(async () => {
    await app?.stop();
    await slack?.close();
  });

  it('delivers a slash command and shows respond() as an ephemeral message only the invoker sees', async () => {
    const ack = await slack.runCommand({ userId: RITA, channelId: TREASURY, text: 'hello' });
    expect(ack.status).toBe(200);
    const reply = await slack.waitFor(() => slack.messages(TREASURY, { visibleTo: RITA }).find((m) => m.text === 'Hello there'));
    expect(reply.ephemeralTo).toBe(RITA);
    expect(slack.messages(TREASURY, { visibleTo: ABEL }).some((m) => m.text === 'Hello there')).toBe(false);
    expect(slack.messages(TREASURY).some((m) => m.text === 'Hello there')).toBe(false);
    // Counted as messages() would list them, without copies: the reply only for the one who sees it.
    expect(slack.countMessages(TREASURY, { visibleTo: RITA }, (m) => m.text === 'Hello there')).toBe(1);
    expect(slack.countMessages(TREASURY, { visibleTo: ABEL }, (m) => m.text === 'Hello there')).toBe(0);
  });

  it("posts each answer to a command's response_url as a new message: replace_original cannot replace its first reply", async () => {
    await slack.runCommand({ userId: RITA, channelId: TREASURY, text: 'build' });
    await slack.waitFor(() => responseErrors[0]);
    expect(
      slack
        .messages(TREASURY, { visibleTo: RITA })
        .filter((m) => m.text.startsWith('Buil'))
        .map((m) => m.text),
    ).toEqual(['Building…', 'Built']);
  });

  it('says at once that a slash command the app does not declare is not a valid command, and sends the app nothing', async () => {
    await expect(slack.runCommand({ userId: RITA, channelId: TREASURY, command: '/feet', text: 'balance' })).rejects.toThrow(
      '/feet is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(undeclaredCommands).toEqual([]);
  });

  it('refuses an asynchronous probe in waitFor instead of returning at once having checked nothing', async () => {
    await expect(slack.waitFor(async () => true)).rejects.toThrow('waitFor needs a synchronous probe');
  });

  it('replaces the clicked ephemeral message when the button handler responds with replace_original', async () => {
    const original = slack.messages(TREASURY, { visibleTo: RITA }).find((m) => m.text === 'Hello there')!;
    const ack = await slack.clickButton({ userId: RITA, actionId: 'wave', channelId: TREASURY, messageTs: original.ts });
    expect(ack.status).toBe(200);
    const replaced = await slack.waitFor(() => {
      const message = slack.message(TREASURY, original.ts);
      return message?.text.startsWith('You waved') && message;
    });
    expect(replaced.text).toBe('You waved (wave-1)');
    expect(replaced.ephemeralTo).toBe(RITA);
    expect(slack.messages(TREASURY, { visibleTo: RITA }).filter((m) => m.text.includes('wave')).length).toBe(1);
  });

  it('refuses to find a button the person cannot see', async () => {
    const original = slack.messages(TREASURY, { visibleTo: RITA }).at(-1)!;
    await expect(slack.clickButton({ userId: ABEL, actionId: 'wave', channelId: TREASURY, messageTs: original.ts })).rejects.toThrow(/sees no element "wave"/);
  });

  it('shows the errors a modal submission is acknowledged with, then updates and clears the modal', async () => {
    await slack.runCommand({ userId: RITA, channelId: TREASURY, text: 'modal' });
    const opened = await slack.waitFor(() => slack.views(RITA)[0]);

    await slack.submitView({ userId: RITA, viewId: opened.id, values: { amount: { value: 'twelve' }, currency: { value: 'EUR' } } });
    expect(slack.view(opened.id)?.errors).toEqual({ amount: 'Enter a whole number' });
    const sent = submissions.at(-1)!;
    expect(sent.view.private_metadata).toBe('request-1');
    expect(sent.view.state.values.currency?.value?.selected_option?.value).toBe('EUR');
    expect(sent.view.state.values.amount?.value).toEqual({ type: 'plain_text_input', value: 'twelve' });

    await slack.submitView({ userId: RITA, viewId: opened.id, values: { amount: { value: 'more' } } });
    const updated = slack.view(opened.id)!;
    expect(updated.view.title).toEqual({ type: 'plain_text', text: 'More details' });
    expect(updated.errors).toBeUndefined();
    expect(updated.hash).not.toBe(opened.hash);

    await slack.submitView({ userId: RITA, viewId: opened.id, values: { amount: { value: '12' } } });
    expect(slack.views(RITA)).toEqual([]);
  });

  it('tells inputs that share an action_id apart by their block when the person picks an option', async () => {
    await slack.runCommand({ userId: RITA, channelId: TREASURY, text: 'modal' });
    const opened = await slack.waitFor(() => slack.views(RITA)[0]);
    // Both inputs are `value`: without the block, the pick would land in the amount field.
    const ack = await slack.selectOption({ userId: RITA, viewId: opened.id, actionId: 'value', blockId: 'currency', value: 'EUR' });
    expect(ack.status).toBe(0); // an input block without dispatch_action sends nothing until submit
    await slack.submitView({ userId: RITA, viewId: opened.id, values: { amount: { value: '12' } } });
    const sent = submissions.at(-1)!;
    expect(sent.view.state.values.currency?.value?.selected_option?.value).toBe('EUR');
    expect(sent.view.state.values.amount?.value).toEqual({ type: 'plain_text_input', value: '12' });
  });

  it("keeps a modal open with Slack's own message when a required input is empty", async () => {
    await slack.runCommand({ userId: ABEL, channelId: TREASURY, text: 'modal' });
    const opened = await slack.waitFor(() => slack.views(ABEL)[0]);
    const before = submissions.length;
    const ack = await slack.submitView({ userId: ABEL, viewId: opened.id });
    expect(ack.status).toBe(0);
    expect(submissions.length).toBe(before);
    expect(slack.view(opened.id)?.errors).toEqual({ amount: 'Please complete this required field.' });
  });

  it('reports errors acknowledged for a block that is not an input of the modal, which Slack refuses whole', async () => {
    const earlier = slack.views(ABEL).map((view) => view.id);
    await slack.runCommand({ userId: ABEL, channelId: TREASURY, text: 'modal' });
    const opened = await slack.waitFor(() => slack.views(ABEL).find((view) => !earlier.includes(view.id)));
    await slack.submitView({ userId: ABEL, viewId: opened.id, values: { amount: { value: 'stray' } } });
    expect(slack.limitViolations.filter((line) => line.startsWith('view_submission ack'))).toEqual([
      'view_submission ack: errors for "amount_block", which is not an input block of the view: Slack shows "We had some trouble connecting" instead',
    ]);
    expect(slack.views(ABEL).map((view) => view.id)).toEqual([opened.id]);
    await slack.closeView({ userId: ABEL, viewId: opened.id });
  });

  it('answers views.open with expired_trigger_id when the trigger is more than 3 seconds old', async () => {
    await slack.runCommand({ userId: ABEL, channelId: TREASURY, text: 'slow modal' });
    await slack.waitFor(() => apiErrors.length > 0);
    expect(apiErrors).toEqual(['expired_trigger_id']);
  });

  it('refuses a trigger used twice and a views.update carrying an outdated hash, keeping the newer view', async () => {
    await slack.runCommand({ userId: RITA, channelId: TREASURY, text: 'modal twice' });
    await slack.waitFor(() => staleCalls.length === 2);
    expect(staleCalls).toEqual(['exchanged_trigger_id', 'hash_conflict']);
    expect(slack.views(RITA).map((view) => view.view.title)).toEqual([{ type: 'plain_text', text: 'First update' }]);
  });

  it('gets 401 from Bolt for a request signed with the wrong secret', async () => {
    const body = new URLSearchParams({ command: '/fleet', text: 'nothing', user_id: RITA, channel_id: TREASURY }).toString();
    expect((await slack.sendSigned(body, { secret: 'not-the-signing-secret' })).status).toBe(401);
    expect((await slack.sendSigned(body)).status).toBe(200);
  });

  it('reports a Block Kit limit broken by a message the app posts', async () => {
    await slack.runCommand({ userId: RITA, channelId: TREASURY, text: 'oversized' });
    const violation = await slack.waitFor(() => slack.limitViolations.find((line) => line.startsWith('chat.postMessage')));
    expect(violation).toContain('header');
    expect(violation).toContain('151 chars (limit 150)');
  });
});

describe('the local Slack Web API and response URLs', () => {
  let slack: LocalSlack;
  const call = async (method: string, args: Record<string, string>, token = BOT_TOKEN) => {
    const response = await fetch(`${slack.apiUrl}${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Bearer ${token}` },
      body: new URLSearchParams(args).toString(),
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    slack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN, usergroups: { S0APPROVERS: [ABEL] } });
    slack.invite(TREASURY);
  });
  afterAll(async () => slack?.close());

  it('answers like Slack for a wrong token, an unknown method, an unknown channel and a user group', async () => {
    expect((await call('auth.test', {}, 'xoxb-wrong')).body).toEqual({ ok: false, error: 'invalid_auth' });
    expect((await call('chat.scheduleMessage', {})).body).toEqual({ ok: false, error: 'unknown_method' });
    expect((await call('chat.postMessage', { channel: 'C0NOWHERE', text: 'hi' })).body).toEqual({ ok: false, error: 'channel_not_found' });
    expect((await call('usergroups.users.list', { usergroup: 'S0APPROVERS' })).body).toEqual({ ok: true, users: [ABEL] });
    const dm = await call('chat.postMessage', { channel: RITA, text: 'Just for you' });
    expect(dm.body.channel).toBe('D0REQUESTER');
    expect(slack.messages('D0REQUESTER').map((m) => m.text)).toEqual(['Just for you']);
    expect(slack.apiCalls.map((c) => c.method)).toContain('usergroups.users.list');
  });

  it("gives a person's Slack language in users.info only when include_locale is set, as Slack does", async () => {
    const plain = (await call('users.info', { user: 'U0FABRICE' })).body as { ok: boolean; user: Record<string, unknown> };
    expect(plain.ok).toBe(true);
    expect(plain.user).not.toHaveProperty('locale');
    expect(((await call('users.info', { user: 'U0FABRICE', include_locale: 'true' })).body.user as { locale: string }).locale).toBe('fr-FR');
    expect(((await call('users.info', { user: RITA, include_locale: 'true' })).body.user as { locale: string }).locale).toBe('en-US');
    expect((await call('users.info', { user: 'U0NOBODY', include_locale: 'true' })).body).toEqual({ ok: false, error: 'user_not_found' });
  });

  it('fails the next calls of a method as told, with a Retry-After on a 429', async () => {
    slack.failNext('chat.postMessage', { retryAfterSeconds: 7 });
    slack.failNext('chat.update', { error: 'message_not_found' });
    const limited = await call('chat.postMessage', { channel: TREASURY, text: 'hi' });
    expect(limited.status).toBe(429);
    expect(limited.retryAfter).toBe('7');
    expect((await call('chat.update', { channel: TREASURY, ts: '1.000001', text: 'x' })).body.error).toBe('message_not_found');
    expect((await call('chat.postMessage', { channel: TREASURY, text: 'hi' })).body.ok).toBe(true);
  });

  it("keeps a message's buttons when chat.update sends new text without blocks, as Slack does, and drops them for an empty list", async () => {
    const blocks = [{ type: 'actions', elements: [{ type: 'button', action_id: 'approve', text: { type: 'plain_text', text: 'Approve' } }] }];
    const posted = await call('chat.postMessage', { channel: TREASURY, text: 'Waiting', blocks: JSON.stringify(blocks) });
    const ts = String(posted.body.ts);
    expect((await call('chat.update', { channel: TREASURY, ts, text: 'Sent' })).body.ok).toBe(true);
    expect(slack.message(TREASURY, ts)).toMatchObject({ text: 'Sent', blocks: [{ type: 'actions', elements: [{ action_id: 'approve' }] }] });
    expect((await call('chat.update', { channel: TREASURY, ts, text: 'Sent', blocks: '[]' })).body.ok).toBe(true);
    expect(slack.message(TREASURY, ts)?.blocks).toEqual([]);
  });

  it('stops honouring a response_url after five uses, and makes each one impossible to guess from another', async () => {
    const payloads: Array<{ response_url: string }> = [];
    const appServer = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () => {
        payloads.push(JSON.parse(new URLSearchParams(raw).get('payload') ?? '{}') as { response_url: string });
        response.end();
      });
    });
    await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
    try {
      slack.setAppUrl(`http://127.0.0.1:${(appServer.address() as AddressInfo).port}/slack/events`);
      const blocks = [{ type: 'actions', elements: [{ type: 'button', action_id: 'pick', text: { type: 'plain_text', text: 'Pick' } }] }];
      const posted = await call('chat.postMessage', { channel: TREASURY, text: 'Pick', blocks: JSON.stringify(blocks) });
      await slack.clickButton({ userId: RITA, actionId: 'pick', channelId: TREASURY, messageTs: String(posted.body.ts) });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await fetch(payloads[0]!.response_url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ text: `reply ${i}` }),
        });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 404]);

      // Like Slack's hooks URLs, one cannot be guessed from another: a web page could otherwise post as the bot.
      await slack.clickButton({ userId: RITA, actionId: 'pick', channelId: TREASURY, messageTs: String(posted.body.ts) });
      const [first, second] = payloads.map((each) => new URL(each.response_url).pathname);
      expect(second).toMatch(/^\/response\/[\w-]*[0-9a-f]{24}$/);
      expect(first!.slice(-24)).not.toBe(second!.slice(-24));
      const guessed = await fetch(`${slack.url}${second!.slice(0, -1)}${second!.endsWith('0') ? '1' : '0'}`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ text: 'forged' }),
      });
      expect(guessed.status).toBe(404);
      expect(
        slack
          .messages(TREASURY, { visibleTo: RITA })
          .filter((m) => m.text.startsWith('reply'))
          .map((m) => m.ephemeralTo),
      ).toEqual(Array(5).fill(RITA));
    } finally {
      appServer.close();
    }
  });
});

describe('the local Slack workspace with a Bolt app in Socket Mode', () => {
  let slack: LocalSlack;
  let app: App;

  beforeAll(async () => {
    slack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN, appToken: APP_TOKEN });
    app = new App({ token: BOT_TOKEN, appToken: APP_TOKEN, socketMode: true, clientOptions: { slackApiUrl: slack.apiUrl }, logLevel: LogLevel.ERROR });
    app.command('/fleet', async ({ ack, command }) => {
      await ack({ response_type: 'in_channel', text: `Balance for <@${command.user_id}>` });
    });
    await app.start();
  });

  afterAll(async () => {
    await app?.stop();
    await slack?.close();
  });

  it('answers a slash command over the WebSocket and shows an in_channel acknowledgement to everyone', async () => {
    expect(slack.apiCalls.some((c) => c.method === 'apps.connections.open' && !c.error)).toBe(true);
    const ack = await slack.runCommand({ userId: RITA, channelId: TREASURY, text: 'balance' });
    expect(ack.status).toBe(200);
    expect(ack.body).toEqual({ response_type: 'in_channel', text: `Balance for <@${RITA}>` });
    expect(slack.messages(TREASURY, { visibleTo: ABEL }).map((m) => m.text)).toEqual([`Balance for <@${RITA}>`]);
  });
});
