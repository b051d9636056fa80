/**
 * Hands each Slack request to the one listener registered for it, looked up by the request's kind
 * and id (command name, `action_id`, `callback_id`, event type), from a single Bolt middleware.
 * Bolt itself runs every request through every listener it holds, each a chain of filters: with a
 * listener per button and modal, each `/fleet` command went through some thirty of them before
 * its ack. A request no listener here answers goes on to Bolt's own listeners (none are
 * registered), unacknowledged, as Bolt leaves a request that no listener matches. After its ack, a
 * listener's work lets the acks of the requests still waiting for their turn go first.
 */
import type {
  AllMiddlewareArgs,
  AnyMiddlewareArgs,
  Middleware,
  SlackAction,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackViewAction,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { EventLoopTurns } from '../../runtime/turns.js';

type RequestArgs = AnyMiddlewareArgs & AllMiddlewareArgs;
type Listener = (args: RequestArgs) => Promise<void>;

interface Route {
  listener: Listener;
  /** What a pattern matched, put where Bolt puts it (`context.actionIdMatches`). */
  matches?: RegExpMatchArray;
  /** Acknowledged before the listener runs, as Bolt does for custom functions. */
  acknowledgeFirst?: boolean;
}

/** One kind's listeners: by exact id, then by pattern in the order registered. */
class RouteTable {
  private readonly byId = new Map<string, Listener>();
  private readonly patterns: { pattern: RegExp; listener: Listener }[] = [];

  constructor(private readonly kind: string) {}

  // Bolt would run both listeners of a request that two of them match; here only one would run.
  add(key: string | RegExp, listener: Listener): void {
    const overlaps =
      typeof key === 'string' ? this.byId.has(key) || this.patterns.some(({ pattern }) => pattern.test(key)) : [...this.byId.keys()].some((id) => key.test(id));
    if (overlaps) throw new Error(`two ${this.kind} listeners would answer ${String(key)}`);
    if (typeof key === 'string') this.byId.set(key, listener);
    else this.patterns.push({ pattern: key, listener });
  }

  find(id: string | undefined): Route | undefined {
    if (id === undefined) return undefined;
    const listener = this.byId.get(id);
    if (listener) return { listener };
    for (const { pattern, listener: matching } of this.patterns) {
      const matches = id.match(pattern);
      if (matches) return { listener: matching, matches };
    }
    return undefined;
  }
}

// The router stores listeners of every kind under one signature; each is only ever called with its kind's requests.
const stored = (listener: unknown) => listener as Listener;

export class ListenerRouter {
  private readonly commands = new RouteTable('command');
  private readonly actions = new RouteTable('action');
  private readonly views = new RouteTable('view submission');
  private readonly suggestions = new RouteTable('options');
  private readonly events = new RouteTable('event');
  private readonly functions = new RouteTable('function');

  /** `turns`: the bot's turns of the event loop, behind whose waiting requests a listener's work after its ack goes. */
  constructor(private readonly turns: EventLoopTurns) {}

  command(name: string, listener: Middleware<SlackCommandMiddlewareArgs>): void {
    this.commands.add(name, stored(listener));
  }

  /** A block action (button, select), by its `action_id` or a pattern over it. */
  action<Action extends SlackAction = SlackAction>(actionId: string | RegExp, listener: Middleware<SlackActionMiddlewareArgs<Action>>): void {
    this.actions.add(actionId, stored(listener));
  }

  /** A modal's submission (`view_submission`), by the modal's `callback_id`. */
  view<ViewAction extends SlackViewAction = ViewSubmitAction>(callbackId: string, listener: Middleware<SlackViewMiddlewareArgs<ViewAction>>): void {
    this.views.add(callbackId, stored(listener));
  }

  /** An external select's search for options (`block_suggestion`), by the select's `action_id`. */
  options(actionId: string, listener: Middleware<SlackOptionsMiddlewareArgs<'block_suggestion'>>): void {
    this.suggestions.add(actionId, stored(listener));
  }

  event<EventType extends string>(type: EventType, listener: Middleware<SlackEventMiddlewareArgs<EventType>>): void {
    this.events.add(type, stored(listener));
  }

  /** A Workflow Builder step of this app (`function_executed`), by its `callback_id`; acknowledged first, as `app.function` does. */
  function(callbackId: string, listener: Middleware<SlackEventMiddlewareArgs<'function_executed'>>): void {
    this.functions.add(callbackId, stored(listener));
  }

  /** The Bolt global middleware that dispatches; registered after every other global middleware. */
  middleware(): Middleware<AnyMiddlewareArgs> {
    return async (args) => {
      const route = this.routeOf(args);
      if (!route) {
        await args.next();
        return;
      }
      if (route.matches) args.context.actionIdMatches = route.matches;
      const ack = acksFirst(args.ack, this.turns);
      if (route.acknowledgeFirst) await ack?.();
      // As Bolt calls a listener: the request's arguments, with a `next` that leads nowhere.
      await route.listener({ ...args, ...(ack ? { ack } : {}), next: async () => undefined } as RequestArgs);
    };
  }

  private routeOf(args: RequestArgs): Route | undefined {
    if ('command' in args) return this.commands.find(args.command.command);
    if ('action' in args) return args.body.type === 'block_actions' ? this.actions.find(idOf(args.action, 'action_id')) : undefined;
    if ('view' in args) return args.body.type === 'view_submission' ? this.views.find(args.view.callback_id) : undefined;
    if ('options' in args) return args.body.type === 'block_suggestion' ? this.suggestions.find(idOf(args.options, 'action_id')) : undefined;
    if ('event' in args) {
      const { event } = args;
      if (event.type !== 'function_executed') return this.events.find(event.type);
      const route = this.functions.find(event.function.callback_id);
      return route && { ...route, acknowledgeFirst: true };
    }
    return undefined;
  }
}

/**
 * Acks first: once a request is acknowledged, its listener's further work (the answer, a modal's
 * next step) waits while other Slack requests wait for their turn, so that a burst's acks never
 * queue behind the work of the requests before them (`runtime/turns.ts`).
 */
function acksFirst(ack: ((...response: never[]) => Promise<void>) | undefined, turns: EventLoopTurns) {
  if (!ack) return undefined;
  return async (...response: never[]) => {
    await ack(...response);
    await turns.behindWaitingRequests();
  };
}

function idOf(payload: object, field: string): string | undefined {
  const id = (payload as Record<string, unknown>)[field];
  return typeof id === 'string' ? id : undefined;
}
