/**
 * A listener's unit test without Slack: a router that keeps what `register…(router, ctx)` registers,
 * a `/fleet` subcommand run as the command's listener hands it over, and requests made as Bolt makes
 * them (the reader's middleware included), with a fake `ack`, `respond` and Web API client that
 * record what a person would see. Whatever a test does not fake in the context throws when touched.
 */
import type { WebClient } from '@slack/web-api';
import { vi } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/core/logger.js';
import { AccessControl } from '../../src/slack/access.js';
import type { SlackContext } from '../../src/slack/context.js';
import { fixedLocale, type PersonLanguages } from '../../src/slack/locales.js';
import type { Subcommand } from '../../src/slack/subcommands.js';
import type { ListenerRouter } from '../../src/slack/transport/listener-router.js';
import { readerMiddleware } from '../../src/slack/transport/middleware.js';
import { ValueSeal } from '../../src/slack/trust/sealed-values.js';
import { minimal } from './config-env.js';
import { ManualClock } from './payout-doubles.js';
import { EventLoopTurns } from '../../src/runtime/turns.js';

export const VIEWER = 'UVIEWER01';
export const REQUESTER = 'UREQ00001';
export const APPROVER = 'UAPPR0001';
export const SECOND_APPROVER = 'UAPPR0002';
export const STRANGER = 'USTRANGE1';

type Handler = (args: Record<string, unknown>) => Promise<void>;

/** A stand-in that fails the test when the listener reaches for it. */
export function unfaked<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get: (_target, property) => {
      if (property === 'then') return undefined;
      throw new Error(`the test did not fake ${name}.${String(property)}`);
    },
  });
}

/** The Web API client: each call recorded as `views.open`, `chat.postMessage`, …; `answers` by method. */
export function fakeClient(answers: Record<string, unknown> = {}) {
  const calls: { method: string; args: Record<string, unknown> }[] = [];
  const group = (prefix: string): unknown =>
    new Proxy(() => undefined, {
      get: (_target, property) => (property === 'then' ? undefined : group(prefix ? `${prefix}.${String(property)}` : String(property))),
      apply: (_target, _this, args: unknown[]) => {
        calls.push({ method: prefix, args: (args[0] ?? {}) as Record<string, unknown> });
        const answer = answers[prefix];
        if (answer instanceof Error) return Promise.reject(answer);
        return Promise.resolve(answer ?? { ok: true, view: { id: 'V-OPENED', hash: 'h1' } });
      },
    });
  return { client: group('') as WebClient, calls, of: (method: string) => calls.filter((call) => call.method === method).map((call) => call.args) };
}

/** The configuration a listener reads, from the environment a test gives (viewers, requesters, approvers named). */
export function testConfig(env: Record<string, string> = {}) {
  return loadConfig({
    ...minimal,
    FLEET_VIEWERS: VIEWER,
    FLEET_REQUESTERS: REQUESTER,
    FLEET_APPROVERS: `${APPROVER},${SECOND_APPROVER}`,
    APPROVAL_CHANNEL_ID: 'CAPPROVALS',
    ...env,
  });
}

/** A Slack context with the parts a test fakes; English readers, no sandbox mark. */
export function fakeContext(parts: Partial<SlackContext> = {}, env: Record<string, string> = {}): SlackContext {
  const config = testConfig(env);
  const logger = createLogger({ level: 'silent' });
  return {
    account: unfaked('account'),
    payouts: unfaked('payouts'),
    batches: unfaked('batches'),
    recipients: unfaked('recipients'),
    feed: undefined,
    ledger: undefined,
    exporter: undefined,
    records: undefined,
    fileChecks: unfaked('fileChecks'),
    access: new AccessControl(unfaked<WebClient>('client'), logger),
    accessLists: config.access,
    payoutSettings: config.payouts,
    surface: { sandbox: false, locale: 'en' },
    locales: { ...fixedLocale('en'), ...unfaked<Omit<PersonLanguages, 'forPerson'>>('locales') },
    logger,
    clock: new ManualClock(new Date('2026-11-20T10:00:00Z')),
    readTimeoutMs: 1000,
    ledgerTimeZone: 'UTC',
    seal: new ValueSeal('a-test-secret-long-enough-for-a-seal'),
    turns: new EventLoopTurns(),
    runway: () => Promise.reject(new Error('the test did not fake runway')),
    ...parts,
  };
}

/** What a request's listener was given and did: its acks, replies and Web API calls. */
export interface Handled {
  acks: unknown[];
  replies: Record<string, unknown>[];
  calls: ReturnType<typeof fakeClient>['calls'];
  of: ReturnType<typeof fakeClient>['of'];
}

export class FakeRouter {
  private readonly handlers = new Map<string, Handler>();

  constructor(private readonly ctx: SlackContext) {}

  /** The router to pass to `register…`. */
  get router(): ListenerRouter {
    const keep = (kind: string) => (key: string | RegExp, handler: Handler) => {
      this.handlers.set(`${kind}:${String(key)}`, handler);
    };
    return {
      command: keep('command'),
      action: keep('action'),
      view: keep('view'),
      options: keep('options'),
      event: keep('event'),
      function: keep('function'),
    } as unknown as ListenerRouter;
  }

  /** The kinds and ids registered, as `action:payout_approve`. */
  registered(): string[] {
    return [...this.handlers.keys()].sort();
  }

  private async run(key: string, userId: string | undefined, args: Record<string, unknown>, answers: Record<string, unknown>): Promise<Handled> {
    const handler = this.handlers.get(key);
    if (!handler) throw new Error(`nothing registered for ${key}; registered: ${this.registered().join(', ')}`);
    const acks: unknown[] = [];
    const replies: Record<string, unknown>[] = [];
    const { client, calls, of } = fakeClient(answers);
    const context: Record<string, unknown> = userId ? { userId } : {};
    await readerMiddleware(this.ctx)({ context, next: async () => undefined } as never);
    await handler({
      ack: vi.fn(async (answer?: unknown) => {
        acks.push(answer);
      }),
      respond: vi.fn(async (reply: Record<string, unknown>) => {
        replies.push(reply);
      }),
      client,
      context,
      next: async () => undefined,
      ...args,
    });
    return { acks, replies, calls, of };
  }

  /** A button or select pressed by `userId`; `view` when it sits in a modal. */
  async action(
    actionId: string,
    userId: string,
    action: Record<string, unknown> = {},
    extra: { view?: Record<string, unknown>; answers?: Record<string, unknown> } = {},
  ): Promise<Handled> {
    const pressed = { action_id: actionId, type: 'button', ...action };
    const body = { type: 'block_actions', user: { id: userId }, trigger_id: 'T-1', actions: [pressed], ...(extra.view ? { view: extra.view } : {}) };
    return this.run(`action:${actionId}`, userId, { body, action: pressed, payload: pressed }, extra.answers ?? {});
  }

  /** A modal submitted by `userId`. */
  async submit(callbackId: string, userId: string, view: Record<string, unknown>, answers: Record<string, unknown> = {}): Promise<Handled> {
    const submitted = { id: 'V-SUBMITTED', hash: 'h1', callback_id: callbackId, private_metadata: '', state: { values: {} }, ...view };
    return this.run(`view:${callbackId}`, userId, { body: { type: 'view_submission', user: { id: userId }, view: submitted }, view: submitted }, answers);
  }

  /** An external select's search. */
  async options(actionId: string, userId: string, value: string): Promise<Handled> {
    const body = { type: 'block_suggestion', user: { id: userId }, action_id: actionId, value };
    return this.run(`options:${actionId}`, userId, { body, options: body }, {});
  }

  async event(type: string, event: Record<string, unknown>, userId?: string): Promise<Handled> {
    return this.run(`event:${type}`, userId, { event: { type, ...event }, body: { event } }, {});
  }

  /** A Workflow Builder step of this app run (`function_executed`), by its callback id; no function token unless `context` has one. */
  async functionExecuted(callbackId: string, event: Record<string, unknown>): Promise<Handled> {
    const executed = { type: 'function_executed', function: { callback_id: callbackId }, ...event };
    return this.run(`function:${callbackId}`, undefined, { event: executed, body: { event: executed } }, {});
  }

  /** A slash command as typed (`/fleet balance`). */
  async command(name: string, userId: string, text: string, answers: Record<string, unknown> = {}): Promise<Handled> {
    const command = { command: name, text, user_id: userId, trigger_id: 'T-1', channel_id: 'CHERE', response_url: 'https://hooks.slack.test/r' };
    return this.run(`command:${name}`, userId, { command, body: command, payload: command }, answers);
  }
}

/**
 * A subcommand run as `/fleet` runs it once acknowledged: with the words after its name, the reader's
 * surface, a fake `respond` and client.
 */
export async function runSubcommand(
  subcommand: Subcommand,
  ctx: SlackContext,
  userId: string,
  args: string[] = [],
  answers: Record<string, unknown> = {},
): Promise<Omit<Handled, 'acks'>> {
  const replies: Record<string, unknown>[] = [];
  const { client, calls, of } = fakeClient(answers);
  const command = { command: '/fleet', text: [subcommand.name, ...args].join(' '), user_id: userId, trigger_id: 'T-1', channel_id: 'CHERE' };
  await subcommand.run({
    command: command as never,
    args,
    client,
    respond: (async (reply: Record<string, unknown>) => {
      replies.push(reply);
    }) as never,
    readerSurface: () => Promise.resolve({ ...ctx.surface }),
  });
  return { replies, calls, of };
}

/** The text a person reads in a reply or a modal: its fallback text and every block's text, joined. */
export function seen(value: unknown): string {
  const texts: string[] = [];
  const walk = (node: unknown) => {
    if (typeof node === 'string') return;
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, inner] of Object.entries(node)) {
        if (key === 'text' && typeof inner === 'string') texts.push(inner);
        else walk(inner);
      }
    }
  };
  walk(value);
  return texts.join('\n');
}
