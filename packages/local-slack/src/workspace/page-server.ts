/**
 * The local workspace's browser page: static files, a small JSON API through which the page acts as a
 * person (commands, clicks, modals, opening the app's Home tab) (each action goes through LocalSlack, which signs it and sends Slack's wire format to the app),
 * and Server-Sent Events so the page refreshes when anything a person could see changes.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { readBody, sendJson } from './api-endpoint.js';
import type { LocalSlack } from './local-slack.js';
import type { AckResult, SlackMessage, WorkspaceChange } from './types.js';

/** A person the page offers in its switcher, with what their role lets them do. */
export interface PagePerson {
  id: string;
  role: string;
}

export interface PageOptions {
  /** Who can be played, in switcher order; defaults to every user with no role. */
  people?: PagePerson[];
  /** Shown in the composer as the usage hint. */
  commandHint?: string;
  /** The newest messages kept per channel in the page's state. */
  messagesPerChannel?: number;
  /** The app's custom steps (its manifest's `functions`), offered under "Run workflow". */
  workflowSteps?: PageWorkflowStep[];
  /** Files a person may download from the sidebar to try the app with (written when asked for). */
  sampleFiles?: PageSampleFile[];
  /** The workspaces of a grid (`LocalSlackGrid.pageWorkspaces()`): with two or more, the sidebar picks among their pages. */
  workspaces?: PageWorkspace[];
}

/** A workspace the page's picker offers: its team id, its name, and where its own page is served. */
export interface PageWorkspace {
  teamId: string;
  name: string;
  url: string;
}

/**
 * A file offered under "Example files": its name (letters, digits, `.`, `-`, `_`), what it is for, and
 * its text (sent as UTF-8) or its bytes (sent as they are, in the encoding `charset` names).
 */
export interface PageSampleFile {
  name: string;
  description: string;
  content(): string | Uint8Array;
  /** The bytes' encoding, for the download's content type; UTF-8 for text. */
  charset?: string;
}

/**
 * A custom step as "Run workflow" offers it: its inputs, each a person (`user`, the person running the
 * workflow until they pick another), text, or `runner`: the person running it, filled in as Workflow
 * Builder's "Person who used this workflow" is.
 */
export interface PageWorkflowStep {
  callbackId: string;
  title: string;
  inputs: Array<{ name: string; title: string; type: 'user' | 'text' | 'runner'; required: boolean; example?: string }>;
  /** What a run still going waits for, e.g. `waiting for {requester} to confirm`: `{input}` is that input's value (a person by name). */
  runningNote?: string;
}

const PAGE_DIR = new URL('./page/', import.meta.url);
const STATIC_FILES: Record<string, string> = {
  '/': 'index.html',
  '/page/app.js': 'app.js',
  '/page/blocks.js': 'blocks.js',
  '/page/modal.js': 'modal.js',
  '/page/mrkdwn.js': 'mrkdwn.js',
  '/page/style.css': 'style.css',
  '/page/workflows.js': 'workflows.js',
};
const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/i;

const valuesSchema = z.record(z.string(), z.record(z.string(), z.union([z.string(), z.array(z.string())])));
const source = { channel: z.string().optional(), ts: z.string().optional(), viewId: z.string().optional() };

/** One thing a person can do on the page: its input, checked, and the LocalSlack call that does it. */
interface PageAction {
  run(slack: LocalSlack, input: unknown): Promise<AckResult & { options?: unknown[] }>;
}

function pageAction<S extends z.ZodType>(schema: S, run: (slack: LocalSlack, input: z.infer<S>) => Promise<AckResult & { options?: unknown[] }>): PageAction {
  return {
    run: (slack, input) => {
      const parsed = schema.safeParse(input);
      if (!parsed.success) throw new Error(`invalid input: ${parsed.error.issues[0]?.message ?? 'unknown problem'}`);
      return run(slack, parsed.data);
    },
  };
}

/** The longest command text the composer sends; longer text stays in the composer with a message. */
const MAX_COMMAND_LENGTH = 4000;

const ACTIONS = new Map<string, PageAction>(
  Object.entries({
    command: pageAction(z.object({ as: z.string(), channel: z.string(), text: z.string() }), (slack, input) => {
      if (input.text.length > MAX_COMMAND_LENGTH) {
        throw new Error(
          `This command is ${input.text.length.toLocaleString('en-US')} characters long; this workspace sends at most ${MAX_COMMAND_LENGTH.toLocaleString('en-US')} to the app. Shorten it and send it again.`,
        );
      }
      const match = /^\s*(\/\S+)\s*([\s\S]*)$/.exec(input.text);
      if (!match) throw new Error('The composer sends slash commands: start with /fleet');
      return slack.runCommand({ userId: input.as, channelId: input.channel, command: match[1], text: match[2]?.trim() ?? '' });
    }),
    click: pageAction(
      z.object({ as: z.string(), actionId: z.string(), blockId: z.string().optional(), value: z.string().optional(), ...source }),
      (slack, input) =>
        slack.clickButton({
          userId: input.as,
          actionId: input.actionId,
          ...where(input),
          ...optional('value', input.value),
          ...optional('blockId', input.blockId),
        }),
    ),
    select: pageAction(
      z.object({ as: z.string(), actionId: z.string(), blockId: z.string().optional(), value: z.string(), values: valuesSchema.optional(), ...source }),
      (slack, input) => {
        if (input.viewId && input.values) slack.enterValues({ userId: input.as, viewId: input.viewId, values: input.values });
        return slack.selectOption({ userId: input.as, actionId: input.actionId, value: input.value, ...where(input), ...optional('blockId', input.blockId) });
      },
    ),
    suggest: pageAction(z.object({ as: z.string(), actionId: z.string(), blockId: z.string().optional(), value: z.string(), ...source }), (slack, input) =>
      slack.suggestOptions({ userId: input.as, actionId: input.actionId, value: input.value, ...where(input), ...optional('blockId', input.blockId) }),
    ),
    // A file chosen in a file input: stored at once, as Slack's client uploads it; the page keeps its id.
    upload: pageAction(z.object({ as: z.string(), name: z.string().min(1).max(255), content: z.string().max(15 * 1024 * 1024) }), async (slack, input) => {
      const fileId = slack.uploadFileAs({ userId: input.as, name: input.name, bytes: Buffer.from(input.content, 'base64') });
      return { status: 200, body: undefined, elapsedMs: 0, options: [{ fileId }] };
    }),
    submit: pageAction(z.object({ as: z.string(), viewId: z.string(), values: valuesSchema }), (slack, input) =>
      slack.submitView({ userId: input.as, viewId: input.viewId, values: input.values }),
    ),
    close: pageAction(z.object({ as: z.string(), viewId: z.string() }), (slack, input) => slack.closeView({ userId: input.as, viewId: input.viewId })),
    openHome: pageAction(z.object({ as: z.string() }), (slack, input) => slack.openHome({ userId: input.as })),
    runWorkflow: pageAction(
      z.object({ as: z.string(), callbackId: z.string(), inputs: z.record(z.string(), z.string().max(4000)) }),
      async (slack, input) => (await slack.runWorkflowStep({ callbackId: input.callbackId, inputs: input.inputs })).ack,
    ),
  }),
);

/** Serves the page at `/` and its API under `/workspace/` on the workspace's own server. */
export function mountPage(slack: LocalSlack, options: PageOptions = {}): void {
  const page = new WorkspacePage(slack, options);
  slack.mount('/', (request, response) => page.handle(request, response));
}

class WorkspacePage {
  constructor(
    private readonly slack: LocalSlack,
    private readonly options: PageOptions,
  ) {}

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // A page on another site can rebind its own name to 127.0.0.1; its requests still name that site as Host.
    if (!LOOPBACK_HOST.test(request.headers.host ?? '')) return sendJson(response, 403, { ok: false, error: 'not a local address' });
    const url = new URL(request.url ?? '/', 'http://localhost');
    const file = STATIC_FILES[url.pathname];
    if (request.method === 'GET' && file) return serveFile(response, file);
    if (request.method === 'GET' && url.pathname === '/workspace/state') {
      return sendJson(response, 200, this.stateFor(url.searchParams.get('as') ?? ''));
    }
    if (request.method === 'GET' && url.pathname === '/workspace/events') return this.streamChanges(request, response);
    const sample = this.options.sampleFiles?.find((file) => url.pathname === `/workspace/samples/${file.name}`);
    if (request.method === 'GET' && sample) return sendSample(response, sample);
    const fileId = /^\/workspace\/files\/(F\w+)$/.exec(url.pathname)?.[1];
    if (request.method === 'GET' && fileId) return this.download(fileId, url.searchParams.get('as') ?? '', response, url.searchParams.has('inline'));
    const action = ACTIONS.get(/^\/workspace\/(\w+)$/.exec(url.pathname)?.[1] ?? '');
    if (request.method === 'POST' && action) return this.act(action, request, response);
    sendJson(response, 404, { ok: false, error: 'not_found' });
  }

  private people(): Array<PagePerson & { name: string; realName: string; locale: string }> {
    const users = this.slack.directory().users;
    const people = this.options.people ?? users.map((user) => ({ id: user.id, role: '' }));
    return people.flatMap((person) => {
      const user = users.find((candidate) => candidate.id === person.id);
      // Their Slack's language, which the page writes dates in; Slack's own default when unset.
      return user ? [{ ...person, name: user.name, realName: user.realName ?? user.name, locale: user.locale ?? 'en-US' }] : [];
    });
  }

  /** Everything one person sees: conversations, their messages (ephemeral ones included), open modals. */
  private stateFor(userId: string) {
    const directory = this.slack.directory();
    const people = this.people();
    const me = people.find((person) => person.id === userId) ?? people[0];
    // The workspace names a DM with the bot after the person's user id.
    const myDm = directory.channels.find((channel) => channel.id.startsWith('D') && channel.name === me?.id)?.id;
    const conversations = [
      ...directory.channels.filter((channel) => !channel.id.startsWith('D')).map((channel) => ({ id: channel.id, name: channel.name, dm: false })),
      ...(myDm ? [{ id: myDm, name: 'Fleet Treasury', dm: true }] : []),
    ];
    const limit = this.options.messagesPerChannel ?? 200;
    const messages: Record<string, SlackMessage[]> = {};
    for (const conversation of conversations) {
      messages[conversation.id] = me ? this.slack.messages(conversation.id, { visibleTo: me.id }).slice(-limit) : [];
    }
    const names: Record<string, string> = { [directory.botUserId]: 'Fleet Treasury' };
    for (const user of directory.users) names[user.id] = user.realName ?? user.name;
    return {
      me: me ?? null,
      people,
      botUserId: directory.botUserId,
      conversations,
      channelNames: Object.fromEntries(directory.channels.map((channel) => [channel.id, channel.name])),
      userNames: names,
      messages,
      views: me ? this.slack.views(me.id) : [],
      home: (me && this.slack.home(me.id)) ?? null,
      violations: this.slack.limitViolations,
      workflowSteps: this.options.workflowSteps ?? [],
      workflowRuns: this.slack
        .workflowRuns()
        .slice(-20)
        .map(({ event: _event, ...run }) => run),
      sampleFiles: (this.options.sampleFiles ?? []).map(({ name, description }) => ({ name, description })),
      workspaces: (this.options.workspaces ?? []).map((workspace) => ({ ...workspace, current: workspace.teamId === directory.teamId })),
      commandHint: this.options.commandHint ?? '',
    };
  }

  /** A shared file's bytes, as a download, for a person who can see a conversation it was shared in. */
  /**
   * A shared file's bytes, to whoever may see it. A PNG (by its name and its first bytes alike) is
   * served as an image, shown in the page with `inline` (the page's own address: nothing fetched from
   * outside); everything else as a download.
   */
  private download(fileId: string, userId: string, response: ServerResponse, inline: boolean): void {
    const file = this.slack.file(fileId);
    const visible = file?.channels.some((channel) => !channel.startsWith('D') || channel === `D${userId.slice(1)}`);
    if (!file?.bytes || !visible) return sendJson(response, 404, { ok: false, error: 'file_not_found' });
    // The name came from the app: only safe characters go into the header.
    const name = file.name.replace(/[^\w.-]/g, '_');
    const image = isPng(name, file.bytes);
    response.writeHead(200, {
      'content-type': image ? 'image/png' : name.endsWith('.csv') ? 'text/csv; charset=utf-8' : 'application/octet-stream',
      'content-disposition': `${image && inline ? 'inline' : 'attachment'}; filename="${name}"`,
      'content-length': String(file.bytes.length),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    response.end(file.bytes);
  }

  private streamChanges(request: IncomingMessage, response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    response.write('retry: 1000\n\n');
    const send = (change: WorkspaceChange) => {
      // Web API calls alone change nothing a person sees; what they changed has its own event (a workflow run's end included).
      if (change.type !== 'api_call') response.write(`data: ${JSON.stringify(change)}\n\n`);
    };
    this.slack.on('change', send);
    request.on('close', () => this.slack.off('change', send));
  }

  private async act(action: PageAction, request: IncomingMessage, response: ServerResponse): Promise<void> {
    // A JSON content type forces a CORS preflight, so another site open in the browser cannot act as a person here.
    if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
      return sendJson(response, 415, { ok: false, error: 'expected application/json' });
    }
    let input: unknown;
    try {
      input = JSON.parse(await readBody(request));
    } catch {
      return sendJson(response, 400, { ok: false, error: 'invalid JSON' });
    }
    try {
      const ack = await action.run(this.slack, input);
      sendJson(response, 200, { ok: true, status: ack.status, elapsedMs: ack.elapsedMs, ...(ack.options ? { options: ack.options } : {}) });
    } catch (error) {
      sendJson(response, 400, { ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  }
}

/** An example file as a download, written when asked for. */
function sendSample(response: ServerResponse, sample: PageSampleFile): void {
  const name = sample.name.replace(/[^\w.-]/g, '_');
  const content = sample.content();
  const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  const charset = typeof content === 'string' ? 'utf-8' : (sample.charset ?? 'utf-8');
  response.writeHead(200, {
    'content-type': `${name.endsWith('.csv') ? 'text/csv' : 'text/plain'}; charset=${charset}`,
    'content-disposition': `attachment; filename="${name}"`,
    'content-length': String(body.length),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(body);
}

/** The message or view an action came from, as LocalSlack's person methods take it. */
function where(input: { channel?: string | undefined; ts?: string | undefined; viewId?: string | undefined }) {
  if (input.viewId) return { viewId: input.viewId };
  return { ...optional('channelId', input.channel), ...optional('messageTs', input.ts) };
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

// The page shows text from the bot and the sandbox: should any of it ever slip past escaping, no script of
// its own may run, and no other site may frame the page to steer a click on Approve.
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG by its name and its bytes: a file named `.png` that is something else stays a download. */
export function isPng(name: string, bytes: Buffer): boolean {
  return name.toLowerCase().endsWith('.png') && bytes.subarray(0, 8).equals(PNG_SIGNATURE);
}

const CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

async function serveFile(response: ServerResponse, name: string): Promise<void> {
  const body = await readFile(new URL(name, PAGE_DIR));
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream',
    'cache-control': 'no-store',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
  });
  response.end(body);
}
