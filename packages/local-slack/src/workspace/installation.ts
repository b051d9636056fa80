/**
 * The app's installation in one workspace: its bot token, issued when someone installs the app and
 * revoked when an admin removes it, as Slack keeps them.
 */
import { randomBytes } from 'node:crypto';

/** Whether a bearer token is this workspace's bot token, one it revoked, or neither. */
export type TokenStatus = 'active' | 'revoked' | undefined;

/** What an install granted: the bot token of that workspace and the scopes granted so far. */
export interface Grant {
  token: string;
  scopes: string[];
  installerId: string | undefined;
}

export class AppInstallation {
  private active: string | undefined;
  private readonly revoked = new Set<string>();
  private scopes: string[] = [];
  private installerId: string | undefined;

  constructor(
    private readonly teamId: string,
    botToken: string | undefined,
  ) {
    this.active = botToken || undefined;
  }

  get installed(): boolean {
    return this.active !== undefined;
  }

  status(token: string | undefined): TokenStatus {
    if (token === undefined) return undefined;
    if (token === this.active) return 'active';
    return this.revoked.has(token) ? 'revoked' : undefined;
  }

  /** Slack keeps a workspace's bot token across reinstalls (scopes add up); a new one only after an uninstall. */
  install(userId: string, scopes: string[]): Grant {
    this.active ??= `xoxb-${this.teamId}-${randomBytes(18).toString('base64url')}`;
    this.scopes = [...new Set([...this.scopes, ...scopes])];
    this.installerId ??= userId;
    return { token: this.active, scopes: [...this.scopes], installerId: this.installerId };
  }

  /** Revokes the bot token; false when the app was not installed. */
  revoke(): boolean {
    if (!this.active) return false;
    this.revoked.add(this.active);
    this.active = undefined;
    this.scopes = [];
    this.installerId = undefined;
    return true;
  }
}
