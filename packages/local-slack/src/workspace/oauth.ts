/**
 * Slack's OAuth v2 for one app installed in many workspaces: the checks of `/oauth/v2/authorize`
 * (client, redirect URL, scopes), who may install, the single-use codes of its redirect, and their
 * exchange for the workspace's bot token by `oauth.v2.access`.
 */
import { randomBytes } from 'node:crypto';
import type { Json } from './blocks.js';
import type { LocalSlack } from './local-slack.js';
import type { WorkspaceUser } from './types.js';

/** The app as registered with Slack: its client credentials and the redirect URLs it accepts. */
export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  /** Compared exactly (Slack also accepts sub-paths of a registered URL); the first is the default. */
  redirectUrls: string[];
}

/** A checked `/oauth/v2/authorize` request. */
export interface AuthorizeRequest {
  clientId: string;
  scopes: string[];
  /** Where to send the person back: the one passed, or the app's first registered URL. */
  redirectUri: string;
  /** Whether the request named `redirect_uri`: then `oauth.v2.access` must name the same. */
  redirectNamed: boolean;
  state: string;
}

interface IssuedCode {
  request: AuthorizeRequest;
  teamId: string;
  userId: string;
  issuedAt: number;
  used: boolean;
}

export const CODE_TTL_MS = 10 * 60 * 1000;

/** A workspace the app can be installed in, and whether its members (not only admins and owners) may install apps. */
export interface InstallTarget {
  slack: LocalSlack;
  teamName: string;
  membersCanInstall: boolean;
}

export class OAuthServer {
  private readonly codes = new Map<string, IssuedCode>();

  constructor(
    private readonly app: OAuthApp,
    private readonly appId: string,
    private readonly now: () => number,
    private readonly target: (teamId: string) => InstallTarget | undefined,
  ) {}

  /** The authorize page's parameters, checked as Slack does before it shows anything: an error code for its error page. */
  checkAuthorize(params: URLSearchParams): { ok: true; request: AuthorizeRequest } | { ok: false; error: string } {
    if (params.get('client_id') !== this.app.clientId) return { ok: false, error: 'invalid_client_id' };
    const scopes = (params.get('scope') ?? '').split(/[,\s]+/).filter(Boolean);
    if (scopes.length === 0) return { ok: false, error: 'invalid_scope' };
    const named = params.get('redirect_uri');
    if (named !== null && !this.app.redirectUrls.includes(named)) return { ok: false, error: 'bad_redirect_uri' };
    const redirectUri = named ?? this.app.redirectUrls[0];
    if (!redirectUri) return { ok: false, error: 'bad_redirect_uri' };
    return { ok: true, request: { clientId: this.app.clientId, scopes, redirectUri, redirectNamed: named !== null, state: params.get('state') ?? '' } };
  }

  /** Admins and owners install apps; members only where the workspace lets them. */
  mayInstall(teamId: string, userId: string): boolean {
    const target = this.target(teamId);
    const user = target && personIn(target.slack, userId);
    return Boolean(user && (user.isAdmin || user.isOwner || target.membersCanInstall));
  }

  /** After Allow: a code for the redirect, good once within 10 minutes. */
  issueCode(request: AuthorizeRequest, teamId: string, userId: string): string {
    if (!this.mayInstall(teamId, userId)) throw new Error(`${userId} may not install apps in ${teamId}`);
    const code = `${Math.floor(this.now() / 1000)}.${teamId}.${randomBytes(24).toString('hex')}`;
    this.codes.set(code, { request, teamId, userId, issuedAt: this.now(), used: false });
    return code;
  }

  /**
   * `oauth.v2.access`: client credentials by HTTP Basic auth or form fields, then the code, once.
   * The install happens here, as on Slack the token exists once the code is exchanged.
   */
  access(args: Json, authorization: string | undefined): Json {
    const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    const [basicId, basicSecret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [];
    const clientId = basicId ?? text(args.client_id);
    const clientSecret = basicSecret ?? text(args.client_secret);
    if (clientId !== this.app.clientId) return refuse('invalid_client_id');
    if (clientSecret !== this.app.clientSecret) return refuse('bad_client_secret');
    const grantType = text(args.grant_type);
    if (grantType !== undefined && grantType !== 'authorization_code') return refuse('invalid_grant_type');
    const code = this.codes.get(text(args.code) ?? '');
    if (!code || code.used || this.now() - code.issuedAt > CODE_TTL_MS) return refuse('invalid_code');
    const redirectUri = text(args.redirect_uri);
    if ((code.request.redirectNamed || redirectUri !== undefined) && redirectUri !== code.request.redirectUri) return refuse('bad_redirect_uri');
    const target = this.target(code.teamId);
    if (!target) return refuse('invalid_code');
    code.used = true;
    const grant = target.slack.installApp({ userId: code.userId, scopes: code.request.scopes });
    const directory = target.slack.directory();
    return {
      ok: true,
      app_id: this.appId,
      authed_user: { id: code.userId },
      scope: grant.scopes.join(','),
      token_type: 'bot',
      access_token: grant.token,
      bot_user_id: directory.botUserId,
      team: { id: directory.teamId, name: target.teamName },
      enterprise: null,
      is_enterprise_install: false,
    };
  }
}

function personIn(slack: LocalSlack, userId: string): WorkspaceUser | undefined {
  return slack.directory().users.find((user) => user.id === userId);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function refuse(error: string): Json {
  return { ok: false, error };
}
