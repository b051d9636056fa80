/**
 * The workspace's data: its directory (team, users, channels, DMs, user groups), the messages in each
 * channel, each person's modal stack, and the short-lived trigger ids and response URLs Slack hands out.
 * No transport here; every change is reported through `onChange`.
 */
import { WorkflowRuns } from './workflows.js';
import { ChannelMembership } from './membership.js';
import { randomBytes } from 'node:crypto';
import { withGeneratedIds, type Json } from './blocks.js';
import { buildStateValues, type OfferedOptions } from './view-state.js';
import type { OpenView, SlackMessage, SubmittedValues, WorkspaceChange, WorkspaceChannel, WorkspaceUser } from './types.js';

export const TRIGGER_TTL_MS = 3_000;
export const MAX_VIEW_STACK = 3;

export const DEFAULT_USERS: WorkspaceUser[] = [
  { id: 'U0REQUESTER', name: 'rita', realName: 'Rita Requester', locale: 'en-US' },
  { id: 'U0APPROVER', name: 'abel', realName: 'Abel Approver', locale: 'en-GB' },
  { id: 'U0APPROVER2', name: 'ada', realName: 'Ada Approver', locale: 'en-US' },
  { id: 'U0NEWCOMER', name: 'nico', realName: 'Nico Newcomer', locale: 'en-US' },
  { id: 'U0FABRICE', name: 'fabrice', realName: 'Fabrice Approbateur', locale: 'fr-FR' },
];

export const DEFAULT_CHANNELS: WorkspaceChannel[] = [
  { id: 'C0TREASURY', name: 'treasury' },
  { id: 'C0APPROVALS', name: 'treasury-approvals' },
  { id: 'C0FEED', name: 'treasury-feed' },
];

export interface WorkspaceIdentity {
  teamId: string;
  teamDomain: string;
  teamName: string;
  botUserId: string;
  botId: string;
  appId: string;
}

export interface ResponseUrlRecord {
  channelId: string;
  userId: string;
  createdAt: number;
  uses: number;
  /** An action's URL may replace or delete the message clicked; a slash command's only posts new messages. */
  kind: 'command' | 'message';
  targetTs?: string;
}

/** A file between `files.getUploadURLExternal` and `files.completeUploadExternal`, and after. */
export interface StoredFile {
  id: string;
  name: string;
  /** The length the app declared when it asked for the upload URL. */
  length: number;
  /** The secret part of the upload URL. */
  uploadToken: string;
  /** Set once the bytes were posted to the upload URL. */
  bytes?: Buffer;
  /** Who uploaded it through a file input; undefined for the app's own uploads. */
  uploadedBy?: string;
  /** Set once completed: the title and where it was shared. */
  title?: string;
  channels: string[];
}

type TriggerCheck = { ok: true; userId: string } | { ok: false; error: string };

interface StoredView {
  open: OpenView;
  /** What the person typed or picked so far, by block_id → action_id. */
  entered: SubmittedValues;
  /** The options the app last suggested for each external select (`block_suggestion`). */
  offered?: OfferedOptions;
}

export class WorkspaceState {
  readonly users = new Map<string, WorkspaceUser>();
  readonly channels = new Map<string, WorkspaceChannel>();
  readonly usergroups = new Map<string, string[]>();
  /** Who is in each channel and DM: the bot only where it was invited. */
  readonly membership = new ChannelMembership();
  private readonly messagesByChannel = new Map<string, SlackMessage[]>();
  private readonly stacks = new Map<string, StoredView[]>();
  /** Each person's App Home tab, as the app last published it. */
  private readonly homes = new Map<string, StoredView>();
  private readonly triggers = new Map<string, { userId: string; issuedAt: number; used: boolean }>();
  private readonly responseUrls = new Map<string, ResponseUrlRecord>();
  private readonly files = new Map<string, StoredFile>();
  private sequence = 0;
  /** Where `url_private_download` points: set by the server once it listens. */
  privateFilesBase = '';
  /** Workflow Builder runs of the app's custom steps, and their function tokens. */
  readonly workflows: WorkflowRuns;

  constructor(
    readonly identity: WorkspaceIdentity,
    directory: { users: WorkspaceUser[]; channels: WorkspaceChannel[]; usergroups: Record<string, string[]> },
    readonly now: () => number,
    private readonly onChange: (change: WorkspaceChange) => void,
  ) {
    for (const user of directory.users) this.users.set(user.id, user);
    for (const user of directory.users) this.dmWith(user.id);
    for (const channel of directory.channels) {
      this.channels.set(channel.id, channel);
      for (const userId of channel.members ?? directory.users.map((user) => user.id)) this.membership.add(channel.id, userId);
    }
    for (const [id, members] of Object.entries(directory.usergroups)) this.usergroups.set(id, [...members]);
    this.workflows = new WorkflowRuns(
      now,
      (prefix) => this.nextId(prefix),
      (run) => onChange({ type: 'workflow_run', executionId: run.executionId }),
    );
  }

  next(): number {
    return ++this.sequence;
  }

  /** Slack-looking ids that are unique within this workspace. */
  nextId(prefix: string): string {
    return `${prefix}${this.next().toString(36).toUpperCase().padStart(8, '0')}`;
  }

  private nextTs(): string {
    return `${Math.floor(this.now() / 1000)}.${String(this.next()).padStart(6, '0')}`;
  }

  private generatedBlockId = (): string => this.next().toString(36);

  // Directory

  /** The bot's DM with a person (named after their user id): `D` followed by the user id without its `U`. */
  dmWith(userId: string): WorkspaceChannel | undefined {
    if (!this.users.has(userId)) return undefined;
    const id = `D${userId.slice(1)}`;
    let channel = this.channels.get(id);
    if (!channel) {
      channel = { id, name: userId };
      this.channels.set(id, channel);
      this.membership.add(id, userId);
      this.membership.add(id, this.identity.botUserId);
    }
    return channel;
  }

  /** A channel by id, by name (with or without `#`), or a user id meaning the DM with that person. */
  resolveChannel(reference: string): WorkspaceChannel | undefined {
    const byId = this.channels.get(reference);
    if (byId) return byId;
    if (this.users.has(reference)) return this.dmWith(reference);
    const name = reference.replace(/^#/, '');
    return [...this.channels.values()].find((channel) => channel.name === name && !channel.id.startsWith('D'));
  }

  isDm(channelId: string): boolean {
    return channelId.startsWith('D');
  }

  // Messages

  postMessage(input: Omit<SlackMessage, 'ts' | 'blocks'> & { blocks?: unknown }): SlackMessage {
    const message: SlackMessage = { ...input, ts: this.nextTs(), blocks: withGeneratedIds(input.blocks, this.generatedBlockId) };
    const list = this.messagesByChannel.get(message.channel) ?? [];
    list.push(message);
    this.messagesByChannel.set(message.channel, list);
    this.onChange({ type: 'message_posted', channel: message.channel, ts: message.ts });
    return message;
  }

  /** The stored message itself (callers outside the workspace get copies). */
  findMessage(channelId: string, ts: string): SlackMessage | undefined {
    return this.messagesByChannel.get(channelId)?.find((message) => message.ts === ts);
  }

  updateMessage(message: SlackMessage, changes: { text: string; blocks?: unknown }): void {
    message.text = changes.text;
    message.blocks = withGeneratedIds(changes.blocks, this.generatedBlockId);
    message.edited = true;
    this.onChange({ type: 'message_updated', channel: message.channel, ts: message.ts });
  }

  deleteMessage(message: SlackMessage): void {
    message.deleted = true;
    this.onChange({ type: 'message_deleted', channel: message.channel, ts: message.ts });
  }

  listMessages(channelId: string, options: { visibleTo?: string; includeDeleted?: boolean } = {}): SlackMessage[] {
    return (this.messagesByChannel.get(channelId) ?? []).filter(
      (message) => (options.includeDeleted || !message.deleted) && (message.ephemeralTo === undefined || message.ephemeralTo === options.visibleTo),
    );
  }

  /** Every live message a person can see, newest first (for finding the button they mean). */
  visibleMessages(userId: string, channelId?: string): SlackMessage[] {
    const channels = channelId ? [channelId] : [...this.messagesByChannel.keys()];
    return channels.flatMap((id) => this.listMessages(id, { visibleTo: userId })).sort((a, b) => Number(b.ts.split('.')[1]) - Number(a.ts.split('.')[1]));
  }

  // Triggers and response URLs

  issueTrigger(userId: string): string {
    const id = `${this.next()}.${Math.floor(this.now() / 1000)}.${this.next().toString(16).padStart(32, 'a')}`;
    this.triggers.set(id, { userId, issuedAt: this.now(), used: false });
    return id;
  }

  /** Uses a trigger id once: Slack's `invalid_trigger_id`, `exchanged_trigger_id`, `expired_trigger_id`. */
  redeemTrigger(id: unknown): TriggerCheck {
    const trigger = typeof id === 'string' ? this.triggers.get(id) : undefined;
    if (!trigger) return { ok: false, error: 'invalid_trigger_id' };
    if (trigger.used) return { ok: false, error: 'exchanged_trigger_id' };
    if (this.now() - trigger.issuedAt > TRIGGER_TTL_MS) return { ok: false, error: 'expired_trigger_id' };
    trigger.used = true;
    return { ok: true, userId: trigger.userId };
  }

  /** Unguessable like Slack's hooks URLs, so a web page open in the same browser cannot post as the bot. */
  issueResponseUrl(record: Omit<ResponseUrlRecord, 'createdAt' | 'uses'>): string {
    const id = `${this.nextId('R')}-${randomBytes(12).toString('hex')}`;
    this.responseUrls.set(id, { ...record, createdAt: this.now(), uses: 0 });
    return id;
  }

  responseUrl(id: string): ResponseUrlRecord | undefined {
    return this.responseUrls.get(id);
  }

  // Files

  /** Starts an upload: a file id and the unguessable token of its upload URL. */
  startUpload(name: string, length: number): StoredFile {
    const file: StoredFile = { id: this.nextId('F'), name, length, uploadToken: randomBytes(16).toString('hex'), channels: [] };
    this.files.set(file.id, file);
    return file;
  }

  /** A person's upload through a file input: stored at once, shared nowhere, private to them and the app. */
  uploadAsPerson(userId: string, name: string, bytes: Buffer): StoredFile {
    const file = this.startUpload(name, bytes.length);
    file.bytes = Buffer.from(bytes);
    file.uploadedBy = userId;
    file.title = name;
    this.onChange({ type: 'file_uploaded', fileId: file.id });
    return file;
  }

  /** A file as Slack describes it (`files.info`, a file input's state): private URLs need the bot token. */
  readonly fileLookup = (id: string): Json | undefined => {
    const file = this.files.get(id);
    if (!file?.bytes) return undefined;
    const extension = /\.(\w+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
    const privateUrl = `${this.privateFilesBase}/files-pri/${this.identity.teamId}-${file.id}/${encodeURIComponent(file.name)}`;
    return {
      id: file.id,
      name: file.name,
      title: file.title ?? file.name,
      mimetype: extension === 'csv' ? 'text/csv' : extension === 'png' ? 'image/png' : 'application/octet-stream',
      filetype: extension,
      size: file.bytes.length,
      user: file.uploadedBy ?? this.identity.botUserId,
      created: Math.floor(this.now() / 1000),
      url_private: privateUrl,
      url_private_download: `${privateUrl.replace(/\/[^/]*$/, '')}/download/${encodeURIComponent(file.name)}`,
      is_public: false,
      channels: [...file.channels],
    };
  };

  findFile(id: string): StoredFile | undefined {
    return this.files.get(id);
  }

  findUpload(token: string): StoredFile | undefined {
    return [...this.files.values()].find((file) => file.uploadToken === token);
  }

  // Views

  stack(userId: string): OpenView[] {
    return (this.stacks.get(userId) ?? []).map((stored) => stored.open);
  }

  /** A modal in anyone's stack, or a home tab. */
  findView(viewId: string): StoredView | undefined {
    for (const stack of this.stacks.values()) {
      const found = stack.find((stored) => stored.open.id === viewId);
      if (found) return found;
    }
    return [...this.homes.values()].find((stored) => stored.open.id === viewId);
  }

  home(userId: string): StoredView | undefined {
    return this.homes.get(userId);
  }

  /** `views.publish`: the person's home keeps its id; each publish gives it a new hash. */
  publishHome(userId: string, view: Json): StoredView {
    const existing = this.homes.get(userId);
    const id = existing?.open.id ?? this.nextId('V');
    const stored: StoredView = {
      open: { id, hash: this.nextHash(), userId, view: this.normalizeView(view), rootViewId: id },
      entered: existing?.entered ?? {},
    };
    this.homes.set(userId, stored);
    this.onChange({ type: 'home_published', viewId: id, userId });
    return stored;
  }

  findViewByExternalId(externalId: string): StoredView | undefined {
    for (const stack of this.stacks.values()) {
      const found = stack.find((stored) => stored.open.view.external_id === externalId);
      if (found) return found;
    }
    return undefined;
  }

  /** Opens a modal as the root of a new stack (any stack the person had is replaced). */
  openView(userId: string, view: Json): OpenView {
    for (const old of this.stacks.get(userId) ?? []) this.onChange({ type: 'view_closed', viewId: old.open.id, userId });
    const id = this.nextId('V');
    const stored: StoredView = { open: { id, hash: this.nextHash(), userId, view: this.normalizeView(view), rootViewId: id }, entered: {} };
    this.stacks.set(userId, [stored]);
    this.onChange({ type: 'view_opened', viewId: id, userId });
    return stored.open;
  }

  /** Pushes a modal on top of the person's stack; undefined when the stack is full. */
  pushView(userId: string, view: Json): OpenView | undefined {
    const stack = this.stacks.get(userId) ?? [];
    if (stack.length >= MAX_VIEW_STACK) return undefined;
    const top = stack.at(-1);
    if (!top) return this.openView(userId, view);
    const id = this.nextId('V');
    const open: OpenView = {
      id,
      hash: this.nextHash(),
      userId,
      view: this.normalizeView(view),
      rootViewId: top.open.rootViewId,
      previousViewId: top.open.id,
    };
    stack.push({ open, entered: {} });
    this.onChange({ type: 'view_opened', viewId: id, userId });
    return open;
  }

  updateView(stored: StoredView, view: Json): void {
    stored.open.view = this.normalizeView(view);
    stored.open.hash = this.nextHash();
    delete stored.open.errors;
    // Like Slack, what the person typed survives an update for inputs whose block_id and action_id stay.
    this.onChange({ type: 'view_updated', viewId: stored.open.id, userId: stored.open.userId });
  }

  setViewErrors(stored: StoredView, errors: Record<string, string>): void {
    stored.open.errors = { ...errors };
    this.onChange({ type: 'view_updated', viewId: stored.open.id, userId: stored.open.userId });
  }

  enterValue(stored: StoredView, blockId: string, actionId: string, value: string | string[]): void {
    (stored.entered[blockId] ??= {})[actionId] = value;
  }

  /** Remembers what the app suggested for an external select, so that the person can pick one of them. */
  offerOptions(stored: StoredView, blockId: string, actionId: string, options: Json[]): void {
    ((stored.offered ??= {})[blockId] ??= {})[actionId] = options;
  }

  /** Closes a view and any view stacked above it. */
  closeView(viewId: string): void {
    for (const [userId, stack] of this.stacks) {
      const index = stack.findIndex((stored) => stored.open.id === viewId);
      if (index < 0) continue;
      for (const closed of stack.splice(index)) this.onChange({ type: 'view_closed', viewId: closed.open.id, userId });
      return;
    }
  }

  clearViews(userId: string): void {
    const stack = this.stacks.get(userId) ?? [];
    if (stack[0]) this.closeView(stack[0].open.id);
  }

  /** The view object Slack returns and sends in payloads: the app's fields plus Slack's own. */
  fullView(stored: StoredView): Json {
    const { open } = stored;
    const view = open.view;
    return {
      id: open.id,
      team_id: this.identity.teamId,
      type: view.type ?? 'modal',
      blocks: view.blocks ?? [],
      private_metadata: view.private_metadata ?? '',
      callback_id: view.callback_id ?? '',
      state: { values: buildStateValues(view.blocks, stored.entered, stored.offered, this.fileLookup) },
      hash: open.hash,
      title: view.title,
      clear_on_close: view.clear_on_close ?? false,
      notify_on_close: view.notify_on_close ?? false,
      close: view.close ?? null,
      submit: view.submit ?? null,
      previous_view_id: open.previousViewId ?? null,
      root_view_id: open.rootViewId,
      app_id: this.identity.appId,
      external_id: view.external_id ?? '',
      app_installed_team_id: this.identity.teamId,
      bot_id: this.identity.botId,
    };
  }

  private nextHash(): string {
    return `${Math.floor(this.now() / 1000)}.${this.next().toString(36).padStart(8, '0')}`;
  }

  private normalizeView(view: Json): Json {
    return { ...structuredClone(view), blocks: withGeneratedIds(view.blocks, this.generatedBlockId) };
  }
}

export type { StoredView };
