/**
 * The one catalog of every text a person reads, in English and French. Each area declares its texts
 * in `messages/<area>.ts`; they are joined here. `textsFor(locale)` gives the function views call:
 * `t('feed.entries', { count: 3 })`. Logs, metrics and error codes stay English and are not here.
 */
import type { Locale } from './locale.js';
import type { Message, MessageVars, PluralForms } from './define.js';
import { amountTexts } from './messages/amounts.js';
import { common } from './messages/common.js';
import { digestTexts } from './messages/digest.js';
import { exportTexts } from './messages/export.js';
import { payoutApproval } from './messages/payout-approval.js';
import { payoutDetails } from './messages/payout-details.js';
import { payoutRails } from './messages/payout-rails.js';
import { payoutRefusals } from './messages/payout-refusals.js';
import { payoutBatch } from './messages/payout-batch.js';
import { payoutRecords } from './messages/payout-records.js';
import { fleetCommand } from './messages/fleet-command.js';
import { language } from './messages/language.js';
import { payoutRequest } from './messages/payout-request.js';
import { transactions } from './messages/transactions.js';
import { account } from './messages/account.js';
import { feed } from './messages/feed.js';
import { errors } from './messages/errors.js';
import { units } from './messages/units.js';
import { homeTexts } from './messages/home.js';
import { approvalSignals } from './messages/approval-signals.js';
import { payoutSchedule } from './messages/payout-schedule.js';
import { recordsTexts } from './messages/records.js';
import { importProfiles } from './messages/import-profiles.js';
import { tableFiles } from './messages/table-files.js';
import { runwayTexts } from './messages/runway.js';
import { workflowStep } from './messages/workflow-step.js';
import { channelInvites } from './messages/channel-invites.js';
import { hostingTexts } from './messages/hosting.js';

const areas = [
  common,
  amountTexts,
  transactions,
  exportTexts,
  language,
  fleetCommand,
  account,
  feed,
  errors,
  units,
  payoutRequest,
  digestTexts,
  payoutApproval,
  payoutDetails,
  payoutRails,
  payoutRefusals,
  payoutRecords,
  homeTexts,
  payoutBatch,
  approvalSignals,
  payoutSchedule,
  workflowStep,
  recordsTexts,
  importProfiles,
  hostingTexts,
  tableFiles,
  runwayTexts,
  channelInvites,
] as const;

type English = (typeof areas)[number]['en'];
type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (arg: infer I) => void ? I : never;
/** Every key of every area with its English message. */
export type Catalog = UnionToIntersection<English>;
export type MessageKey = Extract<keyof Catalog, string>;

export type VarValue = string | number;
type VarsArg<K extends MessageKey> = [MessageVars<Catalog[K]>] extends [never]
  ? []
  : [vars: { [V in MessageVars<Catalog[K]>]: V extends 'count' ? number : VarValue }];

/** Translates a key with its variables; the argument list is checked against the English text. */
export type Texts = <K extends MessageKey>(key: K, ...vars: VarsArg<K>) => string;

function join(locale: Locale): ReadonlyMap<string, Message> {
  const joined = new Map<string, Message>();
  for (const area of areas) {
    for (const [key, message] of Object.entries<Message>(area[locale])) {
      if (joined.has(key)) throw new Error(`The text key "${key}" is declared twice`);
      joined.set(key, message);
    }
  }
  return joined;
}

const tables: Record<Locale, ReadonlyMap<string, Message>> = { en: join('en'), fr: join('fr') };

/** Every key with its message in one language (for the catalog tests). */
export function catalogTable(locale: Locale): ReadonlyMap<string, Message> {
  return tables[locale];
}

const numberFormats = new Map<Locale, Intl.NumberFormat>();
const pluralRules = new Map<Locale, Intl.PluralRules>();

function numberFormat(locale: Locale): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-US', { maximumFractionDigits: 0 });
    numberFormats.set(locale, format);
  }
  return format;
}

function pluralForm(locale: Locale, forms: PluralForms, count: number): string {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  const category = rules.select(count);
  return forms[category] ?? forms.other;
}

/**
 * Fills a template. Numbers are written the locale's way (`1 234` in French); strings go in as they
 * are, so callers escape untrusted text first. A missing variable is a programming error and throws:
 * a person never sees `{amount}`.
 */
export function fill(locale: Locale, key: string, template: string, vars: Record<string, VarValue>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = vars[name];
    if (value === undefined) throw new Error(`The text "${key}" (${locale}) needs the variable {${name}}`);
    return typeof value === 'number' ? numberFormat(locale).format(value) : value;
  });
}

export function translate(locale: Locale, key: string, vars: Record<string, VarValue> = {}): string {
  const message = tables[locale].get(key) ?? tables.en.get(key);
  if (message === undefined) throw new Error(`Unknown text key "${key}"`);
  const template = typeof message === 'string' ? message : pluralForm(locale, message, Number(vars.count));
  return fill(locale, key, template, vars);
}

const bound = new Map<Locale, Texts>();

/** The translation function for one language. */
export function textsFor(locale: Locale): Texts {
  let texts = bound.get(locale);
  if (!texts) {
    texts = (key: string, vars?: Record<string, VarValue>) => translate(locale, key, vars);
    bound.set(locale, texts);
  }
  return texts;
}
