/**
 * Several local Slack workspaces behind one Web API URL, as Slack serves every workspace an app is
 * installed in: each call is answered by the workspace whose token it carries, the app is installed
 * through OAuth v2 (`/oauth/v2/authorize`, `oauth.v2.access`) and removed by an admin (`uninstall`).
 * Each workspace is a whole `LocalSlack` on its own port (its page, response URLs and files there),
 * delivering to the app's one request URL, signed with the app's one signing secret.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callerToken, parseArgs, readBody, sendJson } from './api-endpoint.js';
import type { LatencyOptions } from './latency.js';
import { LocalSlack } from './local-slack.js';
import { OAuthServer, type InstallTarget, type OAuthApp } from './oauth.js';
import { serveAuthorize } from './oauth-page.js';
import type { RateLimitOptions } from './rate-limits.js';
import type { AckResult, LocalSlackOptions, WorkspaceChannel, WorkspaceUser } from './types.js';

export type { OAuthApp } from './oauth.js';

/** One workspace of the grid. */
export interface GridWorkspaceOptions {
  teamId: string;
  /** `<teamDomain>.slack.com`. */
  teamDomain: string;
  teamName: string;
  users?: WorkspaceUser[];
  channels?: WorkspaceChannel[];
  usergroups?: Record<string, string[]>;
  botUserId?: string;
  botId?: string;
  /** The app installed in advance with this bot token; unset, it is installed through OAuth. */
  botToken?: string;
  /** Slack's "members may install apps" setting; unset, only admins and owners (`isAdmin`, `isOwner`) may. */
  membersCanInstall?: boolean;
}

export interface LocalSlackGridOptions {
  /** The grid's own port (Web API and OAuth pages); each workspace listens on a free port of its own. */
  port?: number;
  host?: string;
  /** The app's signing secret: one per app, signs what every workspace sends it. */
  signingSecret: string;
  /** The app's one request URL (events, commands, interactivity). */
  appUrl?: string;
  appId?: string;
  /** The name the consent page gives the app. */
  appName?: string;
  oauth: OAuthApp;
  workspaces: GridWorkspaceOptions[];
  now?: () => number;
  ackTimeoutMs?: number;
  rateLimits?: RateLimitOptions | false;
  latency?: LatencyOptions | false;
  slashCommands?: string[];
  sendSigned?: LocalSlackOptions['sendSigned'];
}

export class LocalSlackGrid {
  /** In the order given; each a full `LocalSlack` for acting as people and reading what they see. */
  readonly workspaces: LocalSlack[];
  private readonly targets: Array<InstallTarget & { teamId: string }>;
  private readonly oauth: OAuthServer;
  private readonly server: Server;
  private baseUrl = '';

  constructor(private readonly options: LocalSlackGridOptions) {
    const ids = options.workspaces.map((workspace) => workspace.teamId);
    if (new Set(ids).size !== ids.length) throw new Error('each workspace of a grid needs its own teamId');
    const { port: _port, host, oauth: _oauth, workspaces: _workspaces, appName: _appName, ...shared } = options;
    this.targets = options.workspaces.map(({ membersCanInstall, botToken, ...workspace }) => ({
      teamId: workspace.teamId,
      teamName: workspace.teamName,
      membersCanInstall: membersCanInstall ?? false,
      slack: new LocalSlack({ ...shared, ...workspace, ...(host ? { host } : {}), botToken: botToken ?? '' }),
    }));
    this.workspaces = this.targets.map((target) => target.slack);
    this.oauth = new OAuthServer(options.oauth, options.appId ?? 'A0FLEETAPP', options.now ?? Date.now, (teamId) =>
      this.targets.find((target) => target.teamId === teamId),
    );
    this.server = createServer((request, response) => {
      this.route(request, response).catch((error: unknown) => {
        if (!response.headersSent) sendJson(response, 500, { ok: false, error: 'internal_error', detail: String(error) });
      });
    });
  }

  /** Where the grid answers: `slack.com` for the app (its OAuth pages under `/oauth/v2/`). */
  get url(): string {
    return this.baseUrl;
  }

  /** The one Web API URL of every workspace (`slackApiUrl` / `clientOptions.slackApiUrl`). */
  get apiUrl(): string {
    return `${this.baseUrl}/api/`;
  }

  /** The workspace of this team id; throws for an unknown one. */
  workspace(teamId: string): LocalSlack {
    const found = this.targets.find((target) => target.teamId === teamId);
    if (!found) throw new Error(`no workspace ${teamId} in the grid`);
    return found.slack;
  }

  /** Where "Add to Slack" sends the browser, with Slack's parameters (and the local `team` and `user` pickers' choices). */
  authorizeUrl(input: { scope: string; state?: string; redirectUri?: string; team?: string; user?: string; clientId?: string }): string {
    const url = new URL('/oauth/v2/authorize', this.baseUrl);
    url.searchParams.set('client_id', input.clientId ?? this.options.oauth.clientId);
    url.searchParams.set('scope', input.scope);
    for (const [name, value] of [
      ['state', input.state],
      ['redirect_uri', input.redirectUri],
      ['team', input.team],
      ['user', input.user],
    ] as const) {
      if (value !== undefined) url.searchParams.set(name, value);
    }
    return url.toString();
  }

  /** Each workspace as the page's workspace picker lists it (`mountPage(slack, { workspaces })`). */
  pageWorkspaces(): Array<{ teamId: string; name: string; url: string }> {
    return this.targets.map((target) => ({ teamId: target.teamId, name: target.teamName, url: target.slack.url }));
  }

  setAppUrl(url: string): void {
    for (const slack of this.workspaces) slack.setAppUrl(url);
  }

  /** An admin of `teamId` removes the app: see `LocalSlack.uninstallApp`. */
  uninstall(teamId: string): Promise<{ tokensRevoked: AckResult; appUninstalled: AckResult } | undefined> {
    return this.workspace(teamId).uninstallApp();
  }

  async listen(): Promise<void> {
    const host = this.options.host ?? '127.0.0.1';
    await Promise.all(this.workspaces.map((slack) => slack.listen()));
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 0, host, () => resolve());
    });
    this.baseUrl = `http://${host}:${(this.server.address() as AddressInfo).port}`;
    // As Slack's files.slack.com: every workspace's private files at the one host the Web API is on.
    for (const slack of this.workspaces) slack.servePrivateFilesFrom(this.baseUrl);
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path === '/oauth/v2/authorize' && (request.method === 'GET' || request.method === 'POST')) {
      return serveAuthorize({ oauth: this.oauth, appName: this.options.appName ?? 'Fleet Treasury', targets: this.targets }, request, response);
    }
    const fileTeam = /^\/files-pri\/([A-Z0-9]+)-F/.exec(path)?.[1];
    const fileOwner = this.targets.find((target) => target.teamId === fileTeam)?.slack;
    if (request.method === 'GET' && fileOwner) return fileOwner.route(request, response);
    const method = /^\/api\/([\w.]+)$/.exec(path)?.[1];
    if (request.method !== 'POST' || !method) return sendJson(response, 404, { ok: false, error: 'not_found' });
    const raw = await readBody(request);
    if (method === 'oauth.v2.access') {
      return sendJson(response, 200, this.oauth.access(parseArgs(raw, request.headers['content-type'] ?? ''), request.headers.authorization));
    }
    const token = callerToken(request, raw);
    const owner = token === undefined ? undefined : this.workspaces.find((slack) => slack.ownsToken(token));
    if (!owner) return sendJson(response, 200, { ok: false, error: token ? 'invalid_auth' : 'not_authed' });
    return owner.serveApi(method, request, response, raw);
  }

  async close(): Promise<void> {
    await Promise.all(this.workspaces.map((slack) => slack.close()));
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

/** Starts a grid of workspaces sharing one Web API URL; the app is installed in none unless a workspace names a `botToken`. */
export async function startLocalSlackGrid(options: LocalSlackGridOptions): Promise<LocalSlackGrid> {
  const grid = new LocalSlackGrid(options);
  await grid.listen();
  return grid;
}
