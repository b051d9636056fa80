/**
 * A local Slack workspace speaking Slack's real wire format: the Web API and response URLs for the app,
 * signed HTTP or Socket Mode deliveries of what people do, and a queryable state with `change` events
 * for tests and the demo page.
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiEndpoint, sendJson, type Fault } from './api-endpoint.js';
import type { Json } from './blocks.js';
import { serveFileRoute } from './file-routes.js';
import { AppInstallation, type Grant } from './installation.js';
import { appEventPayload } from './payloads.js';
import { FORM_CONTENT_TYPE, postEnvelope, postSigned, verifyRequestUrl, type AppTarget } from './delivery.js';
import * as person from './person-actions.js';
import { slowdown } from './latency.js';
import { rateLimiter } from './rate-limits.js';
import { serveResponseUrl } from './response-url.js';
import { SocketModeHub, type EnvelopeType } from './socket-mode.js';
import { DEFAULT_CHANNELS, DEFAULT_USERS, WorkspaceState } from './state.js';
import type {
  AckResult,
  ApiCall,
  LocalSlackOptions,
  OpenView,
  SlackMessage,
  SubmittedValues,
  WorkspaceChange,
  WorkspaceChannel,
  WorkspaceUser,
} from './types.js';
import { waitForChange } from './wait-for.js';
import { createWebApi } from './web-api.js';
import type { WorkflowRun } from './workflows.js';
import { UnknownSlashCommandError } from './slash-commands.js';

export type * from './types.js';
export type { WorkflowRun } from './workflows.js';
export { UnknownSlashCommandError } from './slash-commands.js';

type RouteHandler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

export class LocalSlack extends EventEmitter<{ change: [WorkspaceChange] }> {
  private readonly server: Server;
  private readonly state: WorkspaceState;
  private readonly installation: AppInstallation;
  private readonly api: ApiEndpoint;
  private readonly hub: SocketModeHub | undefined;
  private readonly calls: ApiCall[] = [];
  private readonly violations: string[] = [];
  private readonly routes: Array<{ prefix: string; handler: RouteHandler }> = [];
  private appUrl: string | undefined;
  private baseUrl = '';

  constructor(private readonly options: LocalSlackOptions) {
    super();
    this.setMaxListeners(100);
    const now = options.now ?? Date.now;
    const onChange = (change: WorkspaceChange) => this.emit('change', change);
    this.state = new WorkspaceState(
      {
        teamId: options.teamId ?? 'T0DEMO',
        teamDomain: options.teamDomain ?? 'fleet-treasury-local',
        teamName: options.teamName ?? 'Fleet Treasury (local)',
        botUserId: options.botUserId ?? 'U0FLEETBOT',
        botId: options.botId ?? 'B0FLEETBOT',
        appId: options.appId ?? 'A0FLEETAPP',
      },
      { users: options.users ?? DEFAULT_USERS, channels: options.channels ?? DEFAULT_CHANNELS, usergroups: options.usergroups ?? {} },
      now,
      onChange,
    );
    this.installation = new AppInstallation(this.state.identity.teamId, options.botToken);
    this.appUrl = options.appUrl;
    const ackTimeoutMs = options.ackTimeoutMs ?? 3000;
    const hub = options.appToken
      ? new SocketModeHub({ appId: this.state.identity.appId, ackTimeoutMs, nextId: (prefix) => this.state.nextId(prefix), onChange })
      : undefined;
    this.hub = hub;
    this.api = new ApiEndpoint({
      botToken: (token) => this.installation.status(token),
      appToken: options.appToken,
      handlers: createWebApi({ state: this.state, report: this.report, uploadUrl: (token) => `${this.url}/upload/${token}` }),
      functionExecution: (token) => this.state.workflows.executionOf(token),
      openConnection: hub && (() => hub.issueUrl(this.url)),
      record: (call) => {
        this.calls.push(call);
        this.emit('change', { type: 'api_call', method: call.method });
      },
      now,
      rateLimit: options.rateLimits === false ? undefined : rateLimiter(now, options.rateLimits),
      delay: slowdown(options.latency),
    });
    this.server = createServer((request, response) => {
      this.route(request, response).catch((error: unknown) => {
        if (!response.headersSent) sendJson(response, 500, { ok: false, error: 'internal_error', detail: String(error) });
      });
    });
    this.server.on('upgrade', (request, socket, head) => {
      if (this.hub) this.hub.handleUpgrade(request, socket, head);
      else socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
    });
  }

  get url(): string {
    return this.baseUrl;
  }

  get apiUrl(): string {
    return `${this.baseUrl}/api/`;
  }

  async listen(): Promise<void> {
    const host = this.options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 0, host, () => resolve());
    });
    this.baseUrl = `http://${host}:${(this.server.address() as AddressInfo).port}`;
    this.state.privateFilesBase = this.baseUrl;
  }

  setAppUrl(url: string): void {
    this.appUrl = url;
  }

  /** Serves extra routes (the demo page) under a path prefix. */
  mount(prefix: string, handler: RouteHandler): void {
    this.routes.push({ prefix, handler });
  }

  /** Answers one HTTP request to the workspace (a grid hands it the files at its shared host). */
  async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const apiMethod = /^\/api\/([\w.]+)$/.exec(path)?.[1];
    if (request.method === 'POST' && apiMethod) return this.api.handle(apiMethod, request, response);
    const responseId = /^\/response\/([\w-]+)$/.exec(path)?.[1];
    if (request.method === 'POST' && responseId) {
      await this.api.roundTrip();
      return serveResponseUrl(this.state, responseId, request, response, this.report);
    }
    const access = { isBotToken: (token?: string) => this.installation.status(token) === 'active', signInUrl: `${this.baseUrl}/signin` };
    const file = await serveFileRoute(this.state, access, path, request, response);
    if (file === 'downloaded') this.privateDownloads += 1;
    if (file) return;
    const mounted = this.routes.find((route) => path.startsWith(route.prefix));
    if (mounted) return mounted.handler(request, response);
    sendJson(response, 404, { ok: false, error: 'not_found' });
  }

  /** How many times the app read a file through its private URL. */
  privateDownloads = 0;

  private readonly report = (source: string, violations: string[]): void => {
    for (const violation of violations) {
      const line = `${source}: ${violation}`;
      this.violations.push(line);
      this.emit('change', { type: 'limit_violation', violation: line });
    }
  };

  // Acting as a person

  private get personContext(): person.PersonContext {
    return {
      state: this.state,
      responseUrlBase: `${this.url}/response/`,
      deliver: (type, payload) => this.deliver(type, payload),
      report: this.report,
    };
  }

  /** Over Socket Mode when an app is connected, else signed to the app's URL. */
  private async deliver(type: EnvelopeType, payload: Json, evenUninstalled = false): Promise<AckResult> {
    if (!evenUninstalled && !this.installed) throw new Error(`the app is not installed in ${this.state.identity.teamId}`);
    await this.api.roundTrip();
    if (this.hub?.connected) return this.hub.deliver(type, payload);
    if (!this.appUrl) throw new Error('no app to deliver to: none is connected over Socket Mode and no appUrl is set');
    return postEnvelope(this.appTarget(this.appUrl), type, payload, this.options.sendSigned);
  }

  private appTarget(url: string): AppTarget {
    return { url, secret: this.options.signingSecret, timestampSeconds: Math.floor(this.state.now() / 1000), timeoutMs: this.options.ackTimeoutMs ?? 3000 };
  }

  /**
   * Slack's check of an HTTP app's request URL before it sends events: a signed `url_verification`
   * whose `challenge` the app must answer (as text, or as `{"challenge": …}`). Throws when it does not.
   */
  async verifyRequestUrl(): Promise<void> {
    if (!this.appUrl) throw new Error('verifyRequestUrl needs an appUrl');
    await verifyRequestUrl(this.appTarget(this.appUrl), this.state.nextId('challenge-'));
  }

  /**
   * A person sends a slash command. Like Slack, a command the app does not declare never reaches
   * it: Slack's client says at once that it is not a valid command (an `UnknownSlashCommandError`).
   */
  runCommand(input: { userId: string; channelId: string; text?: string; command?: string }): Promise<AckResult> {
    const command = input.command ?? '/fleet';
    if (!this.installed || !(this.options.slashCommands ?? ['/fleet']).includes(command.toLowerCase())) {
      return Promise.reject(new UnknownSlashCommandError(command));
    }
    return person.runCommand(this.personContext, input);
  }

  /** `blockId` picks among elements that share an action_id in different blocks. */
  clickButton(input: person.ElementTarget & { value?: string }): Promise<AckResult> {
    return person.clickButton(this.personContext, input);
  }

  selectOption(input: person.ElementTarget & { value: string }): Promise<AckResult> {
    return person.selectOption(this.personContext, input);
  }

  /** A person types into an external select: the app's options, after a `block_suggestion`. */
  suggestOptions(input: person.ElementTarget & { value: string }): Promise<person.Suggestion> {
    return person.suggestOptions(this.personContext, input);
  }

  /** Records what the person typed into an open view so far; the app sees it in the view's state of the next action. */
  enterValues(input: { userId: string; viewId: string; values: SubmittedValues }): void {
    person.enterValues(this.personContext, input);
  }

  /**
   * A person chooses a file in a file input: Slack's client uploads it at once, and the view's state
   * then carries it (`files`). Returns the file id to enter as the input's value.
   */
  uploadFileAs(input: { userId: string; name: string; bytes: Buffer | string }): string {
    if (!this.state.users.has(input.userId)) throw new Error(`no user ${input.userId} in the workspace`);
    return this.state.uploadAsPerson(input.userId, input.name, Buffer.from(input.bytes)).id;
  }

  /**
   * Where files' private URLs (`url_private`, `url_private_download`) point from now on: another
   * server, as a file shared from elsewhere may name, for tests of where the app sends its token.
   * Undefined points them back at this workspace.
   */
  servePrivateFilesFrom(baseUrl: string | undefined): void {
    this.state.privateFilesBase = baseUrl ?? this.baseUrl;
  }

  submitView(input: { userId: string; viewId: string; values?: SubmittedValues }): Promise<AckResult> {
    return person.submitView(this.personContext, input);
  }

  closeView(input: { userId: string; viewId: string }): Promise<AckResult> {
    return person.closeView(this.personContext, input);
  }

  /** The person opens the app's Home tab: `app_home_opened` goes to the app over the Events API. */
  openHome(input: { userId: string }): Promise<AckResult> {
    return person.openHome(this.personContext, input);
  }

  /** Posts a raw body to the app URL, signed unless told otherwise; `timestamp` is in Unix seconds. */
  async sendSigned(
    body: string,
    options: { contentType?: string; timestamp?: number; signature?: string; secret?: string } = {},
  ): Promise<{ status: number; body: string }> {
    if (!this.appUrl) throw new Error('sendSigned needs an appUrl');
    const answer = await postSigned({
      url: this.appUrl,
      body,
      secret: options.secret ?? this.options.signingSecret,
      contentType: options.contentType ?? FORM_CONTENT_TYPE,
      timestampSeconds: options.timestamp ?? Math.floor(this.state.now() / 1000),
      timeoutMs: this.options.ackTimeoutMs ?? 3000,
      ...(options.signature !== undefined ? { signature: options.signature } : {}),
    });
    return { status: answer.status, body: answer.text };
  }

  /** Asks connected Socket Mode apps to reconnect (Slack's `disconnect` message). */
  disconnectSocketApps(reason = 'refresh_requested'): void {
    this.hub?.disconnectAll(reason);
  }

  // The app's installation

  get installed(): boolean {
    return this.installation.installed;
  }

  /** Someone installs the app (OAuth's Allow): the workspace's bot token, the same one on a reinstall. */
  installApp(input: { userId: string; scopes: string[] }): Grant {
    if (!this.state.users.has(input.userId)) throw new Error(`no user ${input.userId} in the workspace`);
    return this.installation.install(input.userId, input.scopes);
  }

  /** An admin removes the app: its token is revoked, then `tokens_revoked` and `app_uninstalled` are sent, signed. */
  async uninstallApp(): Promise<{ tokensRevoked: AckResult; appUninstalled: AckResult } | undefined> {
    if (!this.installation.revoke()) return undefined;
    this.state.membership.leaveChannels(this.state.identity.botUserId); // as Slack does: a reinstalled app is invited again
    const event = (body: Json) => this.deliver('events_api', appEventPayload(this.state, body, this.state.nextId('Ev')), true);
    const tokensRevoked = await event({ type: 'tokens_revoked', tokens: { oauth: [], bot: [this.state.identity.botUserId] } });
    return { tokensRevoked, appUninstalled: await event({ type: 'app_uninstalled' }) };
  }

  /** Whether a Web API call with this token is this workspace's to answer (its bot token, even revoked, or a function token). */
  ownsToken(token: string): boolean {
    return this.installation.status(token) !== undefined || this.state.workflows.executionOf(token) !== undefined;
  }

  /** A Web API call whose body a grid of workspaces already read, to find whose token it carries. */
  serveApi(method: string, request: IncomingMessage, response: ServerResponse, rawBody: string): Promise<void> {
    return this.api.handle(method, request, response, rawBody);
  }

  // Observing

  get apiCalls(): ReadonlyArray<ApiCall> {
    return this.calls;
  }

  get limitViolations(): string[] {
    return this.violations;
  }

  get socketAppConnected(): boolean {
    return this.hub?.connected ?? false;
  }

  /** The team, the bot, people and conversations (channels and any DMs opened so far). */
  directory(): { teamId: string; botUserId: string; users: WorkspaceUser[]; channels: WorkspaceChannel[]; usergroups: Record<string, string[]> } {
    return structuredClone({
      teamId: this.state.identity.teamId,
      botUserId: this.state.identity.botUserId,
      users: [...this.state.users.values()],
      channels: [...this.state.channels.values()].map((channel) => ({ ...channel, members: this.state.membership.list(channel.id) })),
      usergroups: Object.fromEntries(this.state.usergroups),
    });
  }

  /** Oldest first. Ephemeral messages only for `visibleTo`; deleted ones only with `includeDeleted`. */
  messages(channelId: string, options: { visibleTo?: string; includeDeleted?: boolean } = {}): SlackMessage[] {
    return structuredClone(this.state.listMessages(channelId, options));
  }

  /**
   * How many of the messages `messages()` would give match `where`, without copying them: for
   * benchmarks that poll while thousands of messages pile up.
   */
  countMessages(
    channelId: string,
    options: { visibleTo?: string; includeDeleted?: boolean } = {},
    where: (message: Readonly<SlackMessage>) => boolean = () => true,
  ): number {
    return this.state.listMessages(channelId, options).filter((message) => where(message)).length;
  }

  /** Any stored message, deleted or ephemeral included. */
  message(channelId: string, ts: string): SlackMessage | undefined {
    const found = this.state.findMessage(channelId, ts);
    return found && structuredClone(found);
  }

  /** A file the app uploaded: its bytes once posted, its title and the conversations it was shared in once completed. */
  file(id: string): { id: string; name: string; title: string | undefined; bytes: Buffer | undefined; channels: string[] } | undefined {
    const found = this.state.findFile(id);
    return found && { id: found.id, name: found.name, title: found.title, bytes: found.bytes && Buffer.from(found.bytes), channels: [...found.channels] };
  }

  views(userId: string): OpenView[] {
    return structuredClone(this.state.stack(userId));
  }

  /** The person's Home tab as the app last published it (`views.publish`); its buttons are clicked with its `id` as `viewId`. */
  home(userId: string): OpenView | undefined {
    const found = this.state.home(userId);
    return found && structuredClone(found.open);
  }

  view(viewId: string): OpenView | undefined {
    const found = this.state.findView(viewId);
    return found && structuredClone(found.open);
  }

  /** Someone adds a member to a channel: the bot by default, as `/invite @Fleet Treasury` does. */
  invite(channelId: string, userId = this.state.identity.botUserId): void {
    if (!this.state.channels.has(channelId)) throw new Error(`no channel ${channelId} in the workspace`);
    this.state.membership.add(channelId, userId);
  }

  /** Someone removes a member from a channel (the bot by default), as `/remove` does. */
  removeFromChannel(channelId: string, userId = this.state.identity.botUserId): void {
    this.state.membership.remove(channelId, userId);
  }

  /** An admin changes a user group's members (as in Slack's admin pages): `usergroups.users.list` answers the new list. */
  setUsergroupMembers(groupId: string, members: string[]): void {
    this.state.usergroups.set(groupId, [...members]);
  }

  failNext(method: string, error: Fault, times = 1): void {
    this.api.failNext(method, error, times);
  }

  /** Resolves with the probe's first truthy answer, re-checked on every change; a thrown probe counts as not yet. */
  waitFor<T>(probe: () => T | undefined | false | null, options: { timeoutMs?: number; message?: string } = {}): Promise<T> {
    return waitForChange(this, probe, options, () => this.calls.slice(-5));
  }

  // Workflow Builder

  /**
   * Someone runs a workflow whose step is the app's custom step `callbackId`, with these typed
   * inputs: Slack sends `function_executed` (with a function token) over the Events API. The run's
   * completion shows in `workflowRun(executionId)`.
   */
  async runWorkflowStep(input: { callbackId: string; inputs: Json }): Promise<{ executionId: string; ack: AckResult }> {
    const { identity } = this.state;
    const run = this.state.workflows.start({ ...input, appId: identity.appId, teamId: identity.teamId, botUserId: identity.botUserId });
    return { executionId: run.executionId, ack: await this.deliver('events_api', run.event) };
  }

  /** Slack sends the same `function_executed` again (an unacknowledged event is retried). */
  redeliverWorkflowStep(executionId: string): Promise<AckResult> {
    const run = this.state.workflows.find(executionId);
    if (!run) throw new Error(`no workflow run ${executionId}`);
    return this.deliver('events_api', run.event);
  }

  /** A run of a custom step: its inputs, and how it completed (outputs, or the error). */
  workflowRun(executionId: string): WorkflowRun | undefined {
    const found = this.state.workflows.find(executionId);
    return found && structuredClone(found);
  }

  workflowRuns(): WorkflowRun[] {
    return structuredClone(this.state.workflows.list());
  }

  async close(): Promise<void> {
    await this.hub?.close();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

export async function startLocalSlack(options: LocalSlackOptions): Promise<LocalSlack> {
  const slack = new LocalSlack(options);
  await slack.listen();
  return slack;
}
