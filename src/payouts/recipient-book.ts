/**
 * The saved recipients as people use them: listed and searched by requesters and approvers, offered
 * to requesters in the payout form, and taken off the list by a requester (with an audit line).
 * Roles are asked on every call; nothing the client sends decides who may act.
 */
import type { Clock } from '../core/clock.js';
import type { Db } from '../store/db.js';
import type { RecipientIdentity } from './recipients.js';
import {
  findSavedRecipient,
  listRecipientEvents,
  removeSavedRecipient,
  searchSavedRecipients,
  type RecipientEvent,
  type SavedRecipient,
} from './saved-recipients.js';
import type { PayoutRoles } from './roles.js';

export type { SavedRecipient } from './saved-recipients.js';

/** Why a saved-recipient action was refused; the Slack layer words it. */
export type RecipientRefusalCode = 'not_viewer' | 'not_requester' | 'not_found';

export type RecipientResult<T> = ({ ok: true } & T) | { ok: false; code: RecipientRefusalCode };

export interface RecipientBookOptions {
  db: Db;
  clock: Clock;
  roles: PayoutRoles;
}

// Slack shows at most 100 options in a select; a list message holds far fewer.
const MAX_LISTED = 100;
const MAX_WORDS = 10;

export class RecipientBook {
  constructor(private readonly options: RecipientBookOptions) {}

  /** Saved recipients holding every word (all of them without words), last paid first; for requesters and approvers. */
  async list(userId: string, words: readonly string[], limit = 20): Promise<RecipientResult<{ recipients: SavedRecipient[]; total: number }>> {
    if (!(await this.mayView(userId))) return { ok: false, code: 'not_viewer' };
    const found = await searchSavedRecipients(this.options.db, cleanWords(words), clampLimit(limit));
    return { ok: true, ...found };
  }

  /** What the payout form's select offers for the typed text: requesters only, else nothing. */
  async suggest(userId: string, typed: string, limit = 20): Promise<SavedRecipient[]> {
    if (!(await this.options.roles.canRequest(userId))) return [];
    const found = await searchSavedRecipients(this.options.db, cleanWords(typed.split(/\s+/)), clampLimit(limit));
    return found.recipients;
  }

  /** One saved recipient, to fill the payout form with: requesters only. */
  async pick(userId: string, identity: RecipientIdentity): Promise<RecipientResult<{ recipient: SavedRecipient }>> {
    if (!(await this.options.roles.canRequest(userId))) return { ok: false, code: 'not_requester' };
    const recipient = await findSavedRecipient(this.options.db, identity.slice(0, 200));
    return recipient ? { ok: true, recipient } : { ok: false, code: 'not_found' };
  }

  /**
   * Takes a recipient off the list: requesters only, their role read fresh. Safe to run twice: a second removal (a double
   * click, a redelivery) finds it gone and says so, and writes nothing.
   */
  async remove(userId: string, identity: RecipientIdentity): Promise<RecipientResult<{ recipient: SavedRecipient }>> {
    // Asked past any cache: someone just taken off the requesters must not change the list.
    if (!(await this.options.roles.canRequest(userId, { fresh: true }))) return { ok: false, code: 'not_requester' };
    const now = this.options.clock.now();
    const removed = await this.options.db.transaction((tx) => removeSavedRecipient(tx, identity.slice(0, 200), userId, now));
    return removed ? { ok: true, recipient: removed } : { ok: false, code: 'not_found' };
  }

  /** Who removed a recipient from the list, and when; oldest first. */
  async history(identity: RecipientIdentity): Promise<RecipientEvent[]> {
    return listRecipientEvents(this.options.db, identity);
  }

  private async mayView(userId: string): Promise<boolean> {
    const [requester, approver] = await Promise.all([this.options.roles.canRequest(userId), this.options.roles.canApprove(userId)]);
    return requester || approver;
  }
}

function cleanWords(words: readonly string[]): string[] {
  return words
    .map((word) => word.trim())
    .filter((word) => word !== '')
    .slice(0, MAX_WORDS)
    .map((word) => word.slice(0, 100));
}

function clampLimit(limit: number): number {
  return Math.min(MAX_LISTED, Math.max(1, Math.floor(limit)));
}
