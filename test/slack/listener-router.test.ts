import { App, type Receiver } from '@slack/bolt';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventLoopTurns, yieldToEventLoop } from '../../src/runtime/turns.js';
import { ListenerRouter } from '../../src/slack/transport/listener-router.js';
import { SRC, sourceFiles } from '../support/source-files.js';

/** A Bolt app with the router as its last middleware, fed requests as its receiver would feed them. */
function appWith(register: (router: ListenerRouter) => void, turns = new EventLoopTurns()) {
  const receiver: Receiver = { init: () => undefined, start: () => Promise.resolve(), stop: () => Promise.resolve() };
  const errors: unknown[] = [];
  const app = new App({ receiver, convoStore: false, authorize: () => Promise.resolve({ botToken: 'xoxb-test', botUserId: 'U0BOT', botId: 'B0BOT' }) });
  app.error(async (error) => {
    errors.push(error);
  });
  const router = new ListenerRouter(turns);
  register(router);
  app.use(router.middleware());
  /** Sends `body` through Bolt; resolves to what the request was acknowledged with, if it was. */
  const send = async (body: Record<string, unknown>) => {
    const acks: unknown[] = [];
    await app.processEvent({
      body,
      ack: (response?: unknown) => {
        acks.push(response ?? 'empty');
        return Promise.resolve();
      },
    });
    return { acked: acks.length > 0, acks };
  };
  return { app, router, send, errors };
}

const person = { id: 'U0RITA', team_id: 'T0TEAM' };
const command = (text: string) => ({
  command: '/fleet',
  text,
  user_id: person.id,
  team_id: 'T0TEAM',
  channel_id: 'C0TREASURY',
  response_url: 'https://hooks.slack.test/r',
  trigger_id: 't',
});
const click = (actionId: string, value = '') => ({
  type: 'block_actions',
  user: person,
  team: { id: 'T0TEAM' },
  channel: { id: 'C0TREASURY' },
  trigger_id: 't',
  response_url: 'https://hooks.slack.test/r',
  container: { type: 'message', channel_id: 'C0TREASURY', message_ts: '1.1' },
  actions: [{ type: 'button', action_id: actionId, block_id: 'b', value, action_ts: '1.2' }],
});
const submission = (callbackId: string, type = 'view_submission') => ({
  type,
  user: person,
  team: { id: 'T0TEAM' },
  trigger_id: 't',
  view: { id: 'V1', type: 'modal', callback_id: callbackId, private_metadata: '', state: { values: {} } },
});
const suggestion = (actionId: string) => ({
  type: 'block_suggestion',
  user: person,
  team: { id: 'T0TEAM' },
  action_id: actionId,
  block_id: 'b',
  value: 'ali',
  view: { id: 'V1', callback_id: 'form' },
});
const event = (inner: Record<string, unknown>) => ({
  type: 'event_callback',
  team_id: 'T0TEAM',
  api_app_id: 'A0APP',
  event_id: 'Ev1',
  event_time: 1,
  event: inner,
});

/** Registers listeners of every kind, each noting in `heard` that it ran. */
function everyKind(router: ListenerRouter, heard: string[]) {
  router.command('/fleet', async ({ ack }) => {
    heard.push('command');
    await ack();
  });
  router.action('balance_refresh', async ({ ack }) => {
    heard.push('refresh');
    await ack();
  });
  router.action('balance_share', async ({ ack }) => {
    heard.push('share');
    await ack();
  });
  router.action('pick', async ({ ack }) => {
    heard.push('pick action');
    await ack();
  });
  router.options('pick', async ({ ack }) => {
    heard.push('pick options');
    await ack({ options: [] });
  });
  router.view('filter', async ({ ack }) => {
    heard.push('filter view');
    await ack();
  });
  router.event('app_home_opened', async () => {
    heard.push('home opened');
  });
  router.function('request_payout', async () => {
    heard.push('function');
  });
}

describe('the listener router', () => {
  it('hands a /fleet command to the command listener alone', async () => {
    const heard: string[] = [];
    const { send } = appWith((router) => everyKind(router, heard));
    expect((await send(command('balance'))).acked).toBe(true);
    expect(heard).toEqual(['command']);
  });

  it('hands a button click to the listener of its action id alone', async () => {
    const heard: string[] = [];
    const { send } = appWith((router) => everyKind(router, heard));
    expect((await send(click('balance_share'))).acked).toBe(true);
    expect((await send(click('balance_refresh'))).acked).toBe(true);
    expect(heard).toEqual(['share', 'refresh']);
  });

  it('tells an options search from a selection on the same select', async () => {
    const heard: string[] = [];
    const { send } = appWith((router) => everyKind(router, heard));
    expect((await send(suggestion('pick'))).acks).toEqual([{ options: [] }]);
    await send(click('pick'));
    expect(heard).toEqual(['pick options', 'pick action']);
  });

  it('hands a modal submission to the listener of its callback id, and not the modal being closed', async () => {
    const heard: string[] = [];
    const { send } = appWith((router) => everyKind(router, heard));
    expect((await send(submission('filter'))).acked).toBe(true);
    expect((await send(submission('filter', 'view_closed'))).acked).toBe(false);
    expect(heard).toEqual(['filter view']);
  });

  it('hands an event to the listener of its type, and a workflow step to its function, acknowledged first', async () => {
    const heard: string[] = [];
    const { send } = appWith((router) => everyKind(router, heard));
    await send(event({ type: 'app_home_opened', user: 'U0RITA', channel: 'D0RITA', tab: 'home', event_ts: '1.1' }));
    const step = await send(
      event({
        type: 'function_executed',
        function: { id: 'Fn1', callback_id: 'request_payout', title: 'Request a payout', type: 'app' },
        inputs: {},
        function_execution_id: 'Fx1',
        workflow_execution_id: 'Wx1',
        event_ts: '1.1',
        bot_access_token: 'xwfp-step',
      }),
    );
    expect(step.acked).toBe(true);
    expect(heard).toEqual(['home opened', 'function']);
  });

  it('leaves a click no listener knows unacknowledged and runs nothing, as Bolt does with no listener matching', async () => {
    const heard: string[] = [];
    const { send, errors } = appWith((router) => everyKind(router, heard));
    expect((await send(click('an_old_button'))).acked).toBe(false);
    expect((await send(submission('an_old_modal'))).acked).toBe(false);
    expect(heard).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('passes a request it has no listener for on to listeners registered with Bolt itself', async () => {
    const heard: string[] = [];
    const { app, send } = appWith((router) => everyKind(router, heard));
    app.action('registered_with_bolt', async ({ ack }) => {
      heard.push('bolt');
      await ack();
    });
    expect((await send(click('registered_with_bolt'))).acked).toBe(true);
    expect(heard).toEqual(['bolt']);
  });

  it('matches a pattern when no id is registered exactly, and gives the listener what it matched', async () => {
    const matched: unknown[] = [];
    const { send } = appWith((router) => {
      router.action('transactions_share', async ({ ack }) => {
        matched.push('share');
        await ack();
      });
      router.action(/^transactions_page:(\d+)$/, async ({ ack, context }) => {
        matched.push(context.actionIdMatches?.[1]);
        await ack();
      });
    });
    expect((await send(click('transactions_page:3'))).acked).toBe(true);
    await send(click('transactions_share'));
    expect((await send(click('transactions_page:next'))).acked).toBe(false);
    expect(matched).toEqual(['3', 'share']);
  });

  it("sends a listener's error to the app's error handler, the request acknowledged as the listener left it", async () => {
    const { send, errors } = appWith((router) => {
      router.action('broken', async ({ ack }) => {
        await ack();
        throw new Error('the store is down');
      });
    });
    expect((await send(click('broken'))).acked).toBe(true);
    expect(errors).toEqual([expect.objectContaining({ message: 'the store is down' })]);
  });

  it('after an ack, lets the Slack requests waiting for their turn go first, then runs the rest of the listener', async () => {
    const heard: string[] = [];
    const turns = new EventLoopTurns();
    const { app } = appWith(
      (router) =>
        router.command('/fleet', async ({ ack }) => {
          await ack();
          heard.push('answered');
        }),
      turns,
    );
    const another = turns.waitingRequest();
    const handled = app.processEvent({
      body: command('balance'),
      ack: () => {
        heard.push('acked');
        return Promise.resolve();
      },
    });
    try {
      for (let turn = 0; turn < 5; turn += 1) await yieldToEventLoop();
      expect(heard).toEqual(['acked']);
    } finally {
      another.taken();
    }
    await handled;
    expect(heard).toEqual(['acked', 'answered']);
  });

  it('refuses at start two listeners that would answer the same request', () => {
    const router = new ListenerRouter(new EventLoopTurns());
    const listener = () => Promise.resolve();
    router.action('approve', listener);
    expect(() => router.action('approve', listener)).toThrow('two action listeners would answer approve');
    router.action(/^page:/, listener);
    expect(() => router.action('page:2', listener)).toThrow('two action listeners');
    expect(() => router.action(/^app/, listener)).toThrow('two action listeners');
    // The same id in two kinds is two requests: a select's options and its selection.
    router.options('approve', listener);
  });

  it("is the only way listeners are registered: no source file calls Bolt's own listener methods", () => {
    const files = sourceFiles();
    const registering = files.filter((file) => /\brouter\.(action|view|command)[<(]/.test(readFileSync(join(SRC, file), 'utf8')));
    expect(registering.length).toBeGreaterThan(10);
    const direct = files.filter((file) =>
      /\bapp\.(action|view|command|event|options|shortcut|function|message)[<(]/.test(readFileSync(join(SRC, file), 'utf8')),
    );
    expect(direct).toEqual([]);
  });
});
