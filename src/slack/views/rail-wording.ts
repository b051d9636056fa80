/**
 * How the Slack surfaces write each payout rail, in the reader's language: its name, its button in
 * the chooser, its recipient's lines on the approval screens, its flags and its saved recipients.
 * Keyed by kind like the domain's rails (`payouts/rails/`), so a kind without its wording does not compile.
 */
import type { SectionBlock } from '@slack/types';
import type { Texts } from '../../i18n/index.js';
import type { DraftOf, PayoutKind, RecipientPart } from '../../payouts/index.js';
import { payoutChooserAction, type PayoutChooserAction } from '../ids.js';
import { operatorName } from './operators.js';

type Field = NonNullable<SectionBlock['fields']>[number];

/** How a view writes text inside a detail: a code span, a word on one line, a person-typed name within a budget. */
export interface DetailWriters {
  code: (value: string) => string;
  word: (value: string) => string;
  name: (value: string, max: number) => string;
  field: (label: string, value: string) => Field;
  /** The budget of a name after escaping. */
  nameMax: number;
}

/** The values a saved recipient's line shares, already written for mrkdwn. */
export interface SavedLineWriters {
  code: (value: string, max: number) => string;
  word: (value: string, max: number) => string;
  numberMax: number;
}

/** What every saved recipient's line says, already written for mrkdwn. */
export interface SavedLineCommon {
  name: string;
  country: string;
  date: string;
  id: string;
}

export interface RailWording<K extends PayoutKind> {
  /** The chooser's button: its id (`payoutChooserAction` in `slack/ids.ts`), its label, whether it is the primary one. */
  chooser: { actionId: PayoutChooserAction<K>; label: (t: Texts) => string; primary: boolean };
  /** `150.00 USD by mobile money to …`. */
  kindName: (t: Texts) => string;
  /** The form's name field: who the name is (a wallet's holder, an account's holder) and an example. */
  nameField: (t: Texts) => { label: string; example: string };
  /** The recipient's fields on the approval screens: the name and where the money goes. */
  recipientFields: (t: Texts, payout: DraftOf<K>, write: DetailWriters) => Field[];
  /** The line under the details: what the Fleet API receives. */
  sentAs: (t: Texts, payout: DraftOf<K>, vars: { amount: string; currency: string; reference: string }, code: (value: string) => string) => string;
  newRecipient: (t: Texts) => string;
  otherName: (t: Texts, name: string) => string;
  /** A saved recipient's line in `/fleet recipients`, its option in the form's select, its number and provider. */
  savedLine: (t: Texts, saved: RecipientPart<K>, common: SavedLineCommon, write: SavedLineWriters) => string;
  savedOption: (t: Texts, saved: RecipientPart<K>) => string;
  savedNumber: (saved: RecipientPart<K>) => string;
}

const RAIL_WORDING: { readonly [K in PayoutKind]: RailWording<K> } = {
  mobile_money: {
    chooser: { actionId: payoutChooserAction('mobile_money'), label: (t) => t('payoutRequest.chooser.mobileMoney'), primary: true },
    kindName: (t) => t('payoutApproval.kind.mobileMoney'),
    nameField: (t) => ({ label: t('payoutRequest.field.name.mobile'), example: 'Amani Kabila' }),
    recipientFields: (t, payout, write) => [
      write.field(t('payoutApproval.field.recipient'), write.name(payout.recipient.name, write.nameMax)),
      write.field(t('payoutApproval.field.phone'), write.code(payout.recipient.phone)),
      write.field(t('payoutApproval.field.operator'), write.word(operatorName(payout.operator))),
    ],
    sentAs: (t, payout, vars, code) => t('payoutApproval.sentAsMobile', { ...vars, operator: code(payout.operator) }),
    newRecipient: (t) => t('payoutApproval.newRecipient.mobile'),
    otherName: (t, name) => t('payoutApproval.otherName.mobile', { name }),
    savedLine: (t, saved, common, write) =>
      t('recipients.line.mobile', {
        ...common,
        phone: write.code(saved.recipient.phone, write.numberMax),
        operator: write.word(operatorName(saved.operator), write.numberMax),
      }),
    savedOption: (t, saved) =>
      t('recipients.option.mobile', {
        name: saved.recipient.name,
        phone: saved.recipient.phone,
        operator: operatorName(saved.operator),
      }),
    savedNumber: (saved) => `${saved.recipient.phone} · ${operatorName(saved.operator)}`,
  },
  bank_account: {
    chooser: { actionId: payoutChooserAction('bank_account'), label: (t) => t('payoutRequest.chooser.bankAccount'), primary: false },
    kindName: (t) => t('payoutApproval.kind.bankAccount'),
    nameField: (t) => ({ label: t('payoutRequest.field.name.bank'), example: 'Ndaya Logistics SARL' }),
    recipientFields: (t, payout, write) => [
      write.field(t('payoutApproval.field.accountHolder'), write.name(payout.recipient.name, 100)),
      write.field(t('payoutApproval.field.accountNumber'), write.code(payout.recipient.accountNumber)),
      write.field(t('payoutApproval.field.bankCode'), write.code(payout.recipient.bankCode)),
    ],
    sentAs: (t, _payout, vars) => t('payoutApproval.sentAsBank', vars),
    newRecipient: (t) => t('payoutApproval.newRecipient.bank'),
    otherName: (t, name) => t('payoutApproval.otherName.bank', { name }),
    savedLine: (t, saved, common, write) =>
      t('recipients.line.bank', {
        ...common,
        account: write.code(saved.recipient.accountNumber, write.numberMax),
        bank: write.code(saved.recipient.bankCode, 20),
      }),
    savedOption: (t, saved) =>
      t('recipients.option.bank', {
        name: saved.recipient.name,
        account: saved.recipient.accountNumber,
        bank: saved.recipient.bankCode,
      }),
    savedNumber: (saved) => `${saved.recipient.accountNumber} · ${saved.recipient.bankCode}`,
  },
};

/** The wording of a kind; given a payout's `kind`, its functions take that payout. */
export function railWording<K extends PayoutKind>(kind: K): RailWording<K> {
  return RAIL_WORDING[kind];
}
