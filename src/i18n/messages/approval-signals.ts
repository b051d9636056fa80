/**
 * Texts of what the approver should see about a payout (src/payouts/signals.ts and the approval
 * tiers): a possible duplicate and the tick it asks for, an unusual amount, the day's totals, the
 * senior approvers a payout above the tier needs, and the details edited after a saved recipient was
 * picked. Shown on the approval message, in the approve window and on the review screen.
 */
import { defineMessages } from '../define.js';

export const approvalSignals = defineMessages({
  en: {
    'approvalSignals.duplicate.request':
      ':warning: *Possible duplicate:* the same recipient, amount and currency as {id} ({state}), requested within the last {hours} hours. See {command}.',
    'approvalSignals.duplicate.batchRow':
      ':warning: *Possible duplicate:* the same recipient, amount and currency as row {row} of bulk payout {batch}, requested within the last {hours} hours. See {command}.',
    'approvalSignals.duplicate.review': 'Approvers will be asked to tick that they checked it is not a duplicate.',
    'approvalSignals.tick.label': 'Possible duplicate',
    'approvalSignals.tick.option': 'I checked this is not a duplicate',
    'approvalSignals.tick.missing': 'Tick this box once you have checked that this payout does not repeat the earlier one.',
    'approvalSignals.unusual':
      ':chart_with_upwards_trend: *Unusual amount:* {times} times this recipient’s usual amount ({usual}, the median of their {count} completed payouts in {currency} over the last {days} days).',
    'approvalSignals.you': 'you',
    'approvalSignals.history.checked': ', after checking it is not a duplicate',
    'approvalSignals.dayTotals':
      ':bar_chart: Today in {currency}: requested by {requester}, {requesterTotal}; to this recipient, {recipientTotal} (this payout included).',
    'approvalSignals.dayTotals.scheduled':
      ':bar_chart: On {day}, this schedule’s busiest day, in {currency}: requested by {requester}, {requesterTotal}; to this recipient, {recipientTotal} (this payout included).',
    'approvalSignals.senior.needs': ':medal: *Above {threshold}:* one approval must come from a senior approver; needs one of: {approvers}.',
    'approvalSignals.senior.given': ':medal: Above {threshold}: approved by senior approver {approver}.',
    'approvalSignals.refusal.duplicateUnchecked':
      'This payout may repeat an earlier one: tick “I checked this is not a duplicate” to approve it. Nothing was recorded.',
    'approvalSignals.changed': ':pencil2: *Changed details:* filled from the saved recipient {name}, then edited: {changes}.',
    'approvalSignals.changed.phone': 'the number ({from} → {to})',
    'approvalSignals.changed.operator': 'the operator ({from} → {to})',
    'approvalSignals.changed.accountNumber': 'the account number ({from} → {to})',
    'approvalSignals.changed.bankCode': 'the bank code ({from} → {to})',
    'approvalSignals.changed.matches': 'These are the details of another known recipient, {name}, last paid with {id}.',
    'approvalSignals.refusal.needsSenior':
      'This payout is above the senior approval amount: one approval must come from a senior approver (PAYOUT_SENIOR_APPROVERS).',
  },
  fr: {
    'approvalSignals.duplicate.request':
      ':warning: *Doublon possible :* même bénéficiaire, même montant et même devise que {id} ({state}), demandé dans les {hours} dernières heures. Voir {command}.',
    'approvalSignals.duplicate.batchRow':
      ':warning: *Doublon possible :* même bénéficiaire, même montant et même devise que la ligne {row} du virement groupé {batch}, demandé dans les {hours} dernières heures. Voir {command}.',
    'approvalSignals.duplicate.review': 'Les approbateurs devront cocher qu’ils ont vérifié qu’il ne s’agit pas d’un doublon.',
    'approvalSignals.tick.label': 'Doublon possible',
    'approvalSignals.tick.option': 'J’ai vérifié que ce n’est pas un doublon',
    'approvalSignals.tick.missing': 'Cochez cette case une fois vérifié que ce paiement ne répète pas le précédent.',
    'approvalSignals.unusual':
      ':chart_with_upwards_trend: *Montant inhabituel :* {times} fois le montant habituel de ce bénéficiaire ({usual}, la médiane de ses {count} paiements aboutis en {currency} sur les {days} derniers jours).',
    'approvalSignals.you': 'vous',
    'approvalSignals.history.checked': ', après avoir vérifié que ce n’est pas un doublon',
    'approvalSignals.dayTotals':
      ':bar_chart: Aujourd’hui en {currency} : demandé par {requester}, {requesterTotal} ; vers ce bénéficiaire, {recipientTotal} (ce paiement compris).',
    'approvalSignals.dayTotals.scheduled':
      ':bar_chart: Le {day}, jour le plus chargé de cette planification, en {currency} : demandé par {requester}, {requesterTotal} ; vers ce bénéficiaire, {recipientTotal} (ce paiement compris).',
    'approvalSignals.senior.needs': ':medal: *Au-delà de {threshold} :* une approbation doit venir d’un approbateur senior ; il faut l’un de : {approvers}.',
    'approvalSignals.senior.given': ':medal: Au-delà de {threshold} : approuvé par l’approbateur senior {approver}.',
    'approvalSignals.refusal.duplicateUnchecked':
      'Ce paiement répète peut-être un paiement précédent : cochez « J’ai vérifié que ce n’est pas un doublon » pour l’approuver. Rien n’a été enregistré.',
    'approvalSignals.changed': ':pencil2: *Coordonnées modifiées :* remplies depuis le bénéficiaire enregistré {name}, puis modifiées : {changes}.',
    'approvalSignals.changed.phone': 'le numéro ({from} → {to})',
    'approvalSignals.changed.operator': 'l’opérateur ({from} → {to})',
    'approvalSignals.changed.accountNumber': 'le numéro de compte ({from} → {to})',
    'approvalSignals.changed.bankCode': 'le code banque ({from} → {to})',
    'approvalSignals.changed.matches': 'Ce sont les coordonnées d’un autre bénéficiaire connu, {name}, dernier paiement {id}.',
    'approvalSignals.refusal.needsSenior':
      'Ce paiement dépasse le montant d’approbation senior : une approbation doit venir d’un approbateur senior (PAYOUT_SENIOR_APPROVERS).',
  },
});
