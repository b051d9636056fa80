/**
 * Texts that differ by payout rail, through `slack/views/rail-wording.ts` and the form's title: a new
 * rail adds its texts here. The keys keep the prefix of the flow they are read in.
 */
import { defineMessages } from '../define.js';

export const payoutRails = defineMessages({
  en: {
    // The chooser's button, the form's title and its name field (src/slack/views/payout-form.ts).
    'payoutRequest.chooser.mobileMoney': 'Mobile money',
    'payoutRequest.chooser.bankAccount': 'Bank account',
    'payoutRequest.form.title.mobile_money': 'Mobile money payout',
    'payoutRequest.form.title.bank_account': 'Bank payout',
    'payoutRequest.field.name.mobile': 'Recipient name',
    'payoutRequest.field.name.bank': 'Account holder name',

    // How a payout of the kind reads, its recipient's flags and what the Fleet API receives.
    'payoutApproval.newRecipient.mobile': ':new: *New recipient:* no payout to this phone number with this operator has been completed before.',
    'payoutApproval.newRecipient.bank': ':new: *New recipient:* no payout to this account has been completed before.',
    'payoutApproval.otherName.mobile':
      ':warning: *Another name:* this number was last paid under the name {name}. The Fleet API cannot check names: make sure it is the same person.',
    'payoutApproval.otherName.bank':
      ':warning: *Another name:* this account was last paid under the name {name}. The Fleet API cannot check names: make sure it is the same holder.',
    'payoutApproval.kind.mobileMoney': 'mobile money',
    'payoutApproval.kind.bankAccount': 'bank transfer',
    'payoutApproval.sentAsMobile': 'Sent to the Fleet API as amount {amount}, currency {currency}, reference {reference}, operator {operator}.',
    'payoutApproval.sentAsBank': 'Sent to the Fleet API as amount {amount}, currency {currency}, reference {reference}.',
  },
  fr: {
    'payoutRequest.chooser.mobileMoney': 'Mobile money',
    'payoutRequest.chooser.bankAccount': 'Compte bancaire',
    'payoutRequest.form.title.mobile_money': 'Paiement mobile money',
    'payoutRequest.form.title.bank_account': 'Virement bancaire',
    'payoutRequest.field.name.mobile': 'Nom du bénéficiaire',
    'payoutRequest.field.name.bank': 'Titulaire du compte',
    'payoutApproval.newRecipient.mobile': ':new: *Nouveau bénéficiaire :* aucun paiement vers ce numéro avec cet opérateur n’a encore abouti.',
    'payoutApproval.newRecipient.bank': ':new: *Nouveau bénéficiaire :* aucun paiement vers ce compte n’a encore abouti.',
    'payoutApproval.otherName.mobile':
      ':warning: *Autre nom :* ce numéro a été payé la dernière fois au nom de {name}. L’API Fleet ne vérifie pas les noms : assurez-vous qu’il s’agit de la même personne.',
    'payoutApproval.otherName.bank':
      ':warning: *Autre nom :* ce compte a été payé la dernière fois au nom de {name}. L’API Fleet ne vérifie pas les noms : assurez-vous qu’il s’agit du même titulaire.',
    'payoutApproval.kind.mobileMoney': 'mobile money',
    'payoutApproval.kind.bankAccount': 'virement bancaire',
    'payoutApproval.sentAsMobile': 'Envoyé à l’API Fleet avec le montant {amount}, la devise {currency}, la référence {reference} et l’opérateur {operator}.',
    'payoutApproval.sentAsBank': 'Envoyé à l’API Fleet avec le montant {amount}, la devise {currency} et la référence {reference}.',
  },
});
