/** What the payout domain needs from the configuration; `config.ts` maps the environment onto it. */
import type { CurrencyAmounts } from '../core/money.js';

export interface PayoutSettings {
  /** What the form offers. */
  operators: string[];
  currencies: string[];
  /** Largest single payout per currency. */
  maxAmount: CurrencyAmounts;
  /** Per requester, per currency, per calendar day in `timeZone`. */
  dailyLimit: CurrencyAmounts;
  /** Two different approvers strictly above this, per currency. */
  dualApprovalAbove: CurrencyAmounts;
  /** A request nobody approves expires after this long. */
  requestTtlHours: number;
  /** How long an unknown payout is looked for before a person is asked to review it. */
  settleWindowMinutes: number;
  /** Different approvers a payout to a recipient never paid before needs, whatever the amount (1 turns the rule off). */
  newRecipientApprovals: number;
  /** Above this, per currency (strictly), one counted approval must come from a senior approver (`tiers.ts`); empty: no tier. */
  seniorApprovalAbove: CurrencyAmounts;
  /** How far back an earlier payout counts for the possible-duplicate rule (duplicates.ts), in hours. */
  duplicateWindowHours: number;
  /** The team's IANA zone (TEAM_TIMEZONE), whose calendar days the day totals and the daily limit count in; UTC when unset. */
  timeZone?: string | undefined;
}
