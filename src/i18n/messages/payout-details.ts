/**
 * Texts of how a payout reads wherever it is shown: its recipient's flags, its summary, state,
 * history and fields (what differs by rail is in `payout-rails.ts`). The keys keep the `payoutApproval.`
 * prefix of the approval side they belong to.
 */
import { defineMessages } from '../define.js';

export const payoutDetails = defineMessages({
  en: {
    // How a payout reads (src/slack/views/payout-details.ts).
    'payoutApproval.summary': '*{amount}* by {kind} to *{name}*',
    'payoutApproval.plainSummary': '{amount} by {kind} to {name}',
    'payoutApproval.moneyFlow':
      "Sending this payout debits the platform's wallet user and credits the fleet account with the amount above: the fleet account's {currency} balance goes up by that amount. The partner then credits its own customer, the recipient above.",
    'payoutApproval.field.amount': 'Amount',
    'payoutApproval.field.reference': 'Reference',
    'payoutApproval.field.country': 'Country',
    'payoutApproval.field.recipient': 'Recipient',
    'payoutApproval.field.phone': 'Phone',
    'payoutApproval.field.operator': 'Operator',
    'payoutApproval.field.accountHolder': 'Account holder',
    'payoutApproval.field.accountNumber': 'Account number',
    'payoutApproval.field.bankCode': 'Bank code (BIC)',
    'payoutApproval.note': '*Note for the approver*\n{note}',
    'payoutApproval.rule.requesterTotal': "the requester's {currency} total for the team’s day",
    'payoutApproval.rule.recipientTotal': "the recipient's {currency} total for the team’s day",
    'payoutApproval.dualApproval.plain': 'Needs {count} different approvers.',
    'payoutApproval.dualApproval.newRecipient': 'Needs {count} different approvers: no payout has been completed to this recipient before.',
    'payoutApproval.dualApproval.why': 'Needs 2 approvers: {what}, {total}, is above {threshold}.',
    'payoutApproval.dualApproval.amount': 'Needs 2 approvers: the amount is above {threshold}.',
    'payoutApproval.revoked': "{user}'s approval no longer counts: no longer an approver",
    'payoutApproval.hold.requesterNotAllowed':
      'Not sent: {user} may no longer request payouts. If their access is restored, an approver who approved can press Approve again; otherwise reject it.',
    'payoutApproval.hold.rolesUnavailable':
      'Not sent: the app could not check with Slack that the requester and approvers still have their roles. An approver who approved can press Approve again to check again.',
    'payoutApproval.hold.needsApprovers':
      'Not sent: checked again just before sending, an approval no longer counts or the day now needs more approvers. It waits for another approver to press {action}.',
    'payoutApproval.hold.needsSenior':
      "Not sent: above the senior tier (by this amount, or the requester's or the recipient's total for the team’s day), one approval must come from a senior approver who still is one. It waits for a senior approver to press {action}.",
    'payoutApproval.hold.overDailyLimit':
      "Not sent: {user}'s {currency} total for the team’s day is above the daily limit as configured now. It waits: once the limit allows it, an approver who approved can press {action} again; otherwise reject it.",
    'payoutApproval.hold.overMaxAmount':
      'Not sent: the amount is above the largest payout allowed in {currency} as configured now. It waits: once the maximum allows it, an approver who approved can press {action} again; otherwise reject it.',
    'payoutApproval.hold.notOffered':
      'Not sent: its currency or operator is no longer offered. It waits: once it is offered again, an approver who approved can press {action} again; otherwise reject it.',
    'payoutApproval.hold.duplicateUnchecked':
      'Not sent: it may repeat a payout requested since it was approved. It needs a tick: an approver presses {action} and ticks that it is not a duplicate.',
    'payoutApproval.hold.missed': 'Not sent: it was approved too long ago (missed). To send it now, an approver presses {action} again.',
    'payoutApproval.hold.actionApprove': 'Approve',
    'payoutApproval.hold.actionRetry': 'Retry with the same reference',
    'payoutApproval.approvedBy': ':white_check_mark: Approved by {user} · {date}',
    'payoutApproval.revokedAt': ':heavy_multiplication_x: {revoked} · approved {date}',
    'payoutApproval.approvalsHead': '*Approvals* ({counted} of {required})',
    'payoutApproval.waitingFor': {
      one: ':hourglass_flowing_sand: Waiting for one more approval',
      other: ':hourglass_flowing_sand: Waiting for {count} approvals',
    },
    'payoutApproval.notEnoughApprovers': {
      one: ':warning: Only {count} person besides the requester can approve ({variable}), and this request needs {required}: it cannot be approved until more approvers are added.',
      other:
        ':warning: Only {count} people besides the requester can approve ({variable}), and this request needs {required}: it cannot be approved until more approvers are added.',
    },
    'payoutApproval.noApprovals': 'None.',
    'payoutApproval.andMore': { one: '…and {count} more', other: '…and {count} more' },
    'payoutApproval.noReason': 'no reason given',
    'payoutApproval.interrupted': 'The app stopped while sending this payout, so its outcome is not known yet.',
    'payoutApproval.sentTimes': {
      one: ' (sent {count} time with the same reference after review)',
      other: ' (sent {count} times with the same reference after review)',
    },
    'payoutApproval.state.held': ':no_entry: *Held.* {held} Expires {date}.',
    'payoutApproval.state.pending': ':hourglass_flowing_sand: *Waiting for approval.* Expires {date}.',
    'payoutApproval.state.sending': ':outbox_tray: *Approved: sending to the Fleet API…*',
    'payoutApproval.state.sent': ':white_check_mark: *Sent.* Transaction {transaction}{again}.',
    'payoutApproval.state.sentWithoutId': ':white_check_mark: *Sent.* The Fleet API gave no transaction id; it accepted reference {reference}{again}.',
    'payoutApproval.state.failed': ':x: *Failed:* {reason} The Fleet API did not take the payout: no money moved.',
    'payoutApproval.state.reviewUnchecked':
      ':warning: *Needs review.* The Fleet API gave no clear answer ({reason}) and its transactions could not all be checked back to this request. It may or may not have gone through; it can be sent again only after a complete check finds nothing.',
    'payoutApproval.state.review':
      ':warning: *Needs review.* The Fleet API gave no clear answer ({reason}) and the payout was not found in its transactions. It may or may not have gone through: check with the Fleet provider before sending it again.',
    'payoutApproval.state.unknown': ":grey_question: *Outcome unknown:* {reason} Looking for reference {reference} in the Fleet API's transactions…",
    'payoutApproval.state.rejected': ':no_entry: *Rejected* by {user}: {reason}',
    'payoutApproval.state.expired': ':hourglass: *Expired* {date} without enough approvals. Nothing was sent.',
    'payoutApproval.state.cancelled': ':heavy_multiplication_x: *Cancelled* by the requester. Nothing was sent.',
    'payoutApproval.anApprover': 'an approver',
    'payoutApproval.word.needsReview': 'needs review',
    'payoutApproval.word.unknown': 'outcome unknown',
    'payoutApproval.word.sending': 'sending',
    'payoutApproval.word.scheduled': 'scheduled',
    'payoutApproval.word.approved': 'approved, not sent yet',
    'payoutApproval.word.sent': 'sent',
    'payoutApproval.word.held': 'held, not sent',
    'payoutApproval.word.pending': 'waiting for approval',
    'payoutApproval.word.failed': 'failed',
    'payoutApproval.word.rejected': 'rejected',
    'payoutApproval.word.expired': 'expired',
    'payoutApproval.word.cancelled': 'cancelled',
    'payoutApproval.match.intro':
      ':mag: *Likely match:* a transaction of the same amount quotes reference {reference} in its description only. It may be this payout, or an unrelated payment that mentions it: an approver other than the requester must say which.',
    'payoutApproval.match.transaction': '*Transaction* {id} · {date} · *{amount}*',
    'payoutApproval.match.description': '*Description* {description}',
    'payoutApproval.match.noDescription': '(none)',
    'payoutApproval.and': ' and ',
    'payoutApproval.retryApprovedMissing': {
      one: ':repeat: Retry approved by {who}; one more approver needed before it is sent again.',
      other: ':repeat: Retry approved by {who}; {count} more approvers needed before it is sent again.',
    },
    'payoutApproval.retryApproved': ':repeat: Retry approved by {who}.',
  },
  fr: {
    'payoutApproval.summary': '*{amount}* par {kind} à *{name}*',
    'payoutApproval.plainSummary': '{amount} par {kind} à {name}',
    'payoutApproval.moneyFlow':
      'L’envoi de ce paiement débite l’utilisateur portefeuille de la plateforme et crédite le compte de flotte du montant ci-dessus : le solde en {currency} du compte de flotte augmente de ce montant. Le partenaire crédite ensuite son propre client, le bénéficiaire ci-dessus.',
    'payoutApproval.field.amount': 'Montant',
    'payoutApproval.field.reference': 'Référence',
    'payoutApproval.field.country': 'Pays',
    'payoutApproval.field.recipient': 'Bénéficiaire',
    'payoutApproval.field.phone': 'Téléphone',
    'payoutApproval.field.operator': 'Opérateur',
    'payoutApproval.field.accountHolder': 'Titulaire du compte',
    'payoutApproval.field.accountNumber': 'Numéro de compte',
    'payoutApproval.field.bankCode': 'Code banque (BIC)',
    'payoutApproval.note': '*Note pour l’approbateur*\n{note}',
    'payoutApproval.rule.requesterTotal': 'le total du jour de l’équipe du demandeur en {currency}',
    'payoutApproval.rule.recipientTotal': 'le total du jour de l’équipe du bénéficiaire en {currency}',
    'payoutApproval.dualApproval.plain': 'Nécessite {count} approbateurs différents.',
    'payoutApproval.dualApproval.newRecipient': 'Nécessite {count} approbateurs différents : aucun paiement n’a encore abouti vers ce bénéficiaire.',
    'payoutApproval.dualApproval.why': 'Nécessite 2 approbateurs : {what}, {total}, dépasse {threshold}.',
    'payoutApproval.dualApproval.amount': 'Nécessite 2 approbateurs : le montant dépasse {threshold}.',
    'payoutApproval.revoked': 'L’approbation de {user} ne compte plus : cette personne ne fait plus partie des approbateurs',
    'payoutApproval.hold.requesterNotAllowed':
      'Non envoyé : {user} n’est plus autorisé à demander des paiements. Si son accès est rétabli, un approbateur qui l’a approuvé peut appuyer de nouveau sur Approuver ; sinon, rejetez-le.',
    'payoutApproval.hold.rolesUnavailable':
      'Non envoyé : l’application n’a pas pu vérifier auprès de Slack que le demandeur et les approbateurs ont toujours leurs rôles. Un approbateur qui l’a approuvé peut appuyer de nouveau sur Approuver pour relancer la vérification.',
    'payoutApproval.hold.needsApprovers':
      'Non envoyé : vérifiée de nouveau juste avant l’envoi, une approbation ne compte plus ou le jour demande désormais plus d’approbateurs. Il attend qu’un autre approbateur appuie sur {action}.',
    'payoutApproval.hold.needsSenior':
      'Non envoyé : au-delà du seuil senior (par ce montant, ou le total du jour de l’équipe du demandeur ou du bénéficiaire), une approbation doit venir d’un approbateur senior qui l’est toujours. Il attend qu’un approbateur senior appuie sur {action}.',
    'payoutApproval.hold.overDailyLimit':
      'Non envoyé : le total du jour de l’équipe de {user} en {currency} dépasse la limite quotidienne telle que configurée maintenant. Il attend : dès que la limite le permet, un approbateur qui l’a approuvé peut appuyer de nouveau sur {action} ; sinon, rejetez-le.',
    'payoutApproval.hold.overMaxAmount':
      'Non envoyé : le montant dépasse le plus grand paiement permis en {currency} tel que configuré maintenant. Il attend : dès que le maximum le permet, un approbateur qui l’a approuvé peut appuyer de nouveau sur {action} ; sinon, rejetez-le.',
    'payoutApproval.hold.notOffered':
      'Non envoyé : sa devise ou son opérateur n’est plus proposé. Il attend : dès qu’il l’est de nouveau, un approbateur qui l’a approuvé peut appuyer de nouveau sur {action} ; sinon, rejetez-le.',
    'payoutApproval.hold.duplicateUnchecked':
      'Non envoyé : il pourrait répéter un paiement demandé depuis son approbation. Il faut une case cochée : un approbateur appuie sur {action} et coche que ce n’est pas un doublon.',
    'payoutApproval.hold.missed':
      'Non envoyé : il a été approuvé il y a trop longtemps (manqué). Pour l’envoyer maintenant, un approbateur appuie de nouveau sur {action}.',
    'payoutApproval.hold.actionApprove': 'Approuver',
    'payoutApproval.hold.actionRetry': 'Réessayer avec la même référence',
    'payoutApproval.approvedBy': ':white_check_mark: Approuvé par {user} · {date}',
    'payoutApproval.revokedAt': ':heavy_multiplication_x: {revoked} · approuvé {date}',
    'payoutApproval.approvalsHead': '*Approbations* ({counted} sur {required})',
    'payoutApproval.waitingFor': {
      one: ':hourglass_flowing_sand: En attente d’une approbation de plus',
      other: ':hourglass_flowing_sand: En attente de {count} approbations',
    },
    'payoutApproval.notEnoughApprovers': {
      one: ':warning: Seulement {count} personne en dehors du demandeur peut approuver ({variable}), et cette demande en nécessite {required} : elle ne peut pas être approuvée tant que d’autres approbateurs ne sont pas ajoutés.',
      other:
        ':warning: Seulement {count} personnes en dehors du demandeur peuvent approuver ({variable}), et cette demande en nécessite {required} : elle ne peut pas être approuvée tant que d’autres approbateurs ne sont pas ajoutés.',
    },
    'payoutApproval.noApprovals': 'Aucune.',
    'payoutApproval.andMore': { one: '…et {count} de plus', other: '…et {count} de plus' },
    'payoutApproval.noReason': 'aucun motif donné',
    'payoutApproval.interrupted': 'L’application s’est arrêtée pendant l’envoi de ce paiement : son résultat n’est donc pas encore connu.',
    'payoutApproval.sentTimes': {
      one: ' (envoyé {count} fois avec la même référence après vérification)',
      other: ' (envoyé {count} fois avec la même référence après vérification)',
    },
    'payoutApproval.state.held': ':no_entry: *Retenu.* {held} Expire {date}.',
    'payoutApproval.state.pending': ':hourglass_flowing_sand: *En attente d’approbation.* Expire {date}.',
    'payoutApproval.state.sending': ':outbox_tray: *Approuvé : envoi à l’API Fleet en cours…*',
    'payoutApproval.state.sent': ':white_check_mark: *Envoyé.* Transaction {transaction}{again}.',
    'payoutApproval.state.sentWithoutId':
      ':white_check_mark: *Envoyé.* L’API Fleet n’a pas donné d’identifiant de transaction ; elle a accepté la référence {reference}{again}.',
    'payoutApproval.state.failed': ':x: *Échec :* {reason} L’API Fleet n’a pas pris le paiement : aucun argent n’a bougé.',
    'payoutApproval.state.reviewUnchecked':
      ':warning: *À vérifier.* L’API Fleet n’a pas donné de réponse claire ({reason}) et ses transactions n’ont pas toutes pu être vérifiées jusqu’à cette demande. Le paiement est peut-être passé, peut-être pas ; il ne pourra être renvoyé qu’après une vérification complète qui ne trouve rien.',
    'payoutApproval.state.review':
      ':warning: *À vérifier.* L’API Fleet n’a pas donné de réponse claire ({reason}) et le paiement n’a pas été trouvé dans ses transactions. Il est peut-être passé, peut-être pas : vérifiez auprès du fournisseur Fleet avant de le renvoyer.',
    'payoutApproval.state.unknown': ':grey_question: *Résultat inconnu :* {reason} Recherche de la référence {reference} dans les transactions de l’API Fleet…',
    'payoutApproval.state.rejected': ':no_entry: *Rejeté* par {user} : {reason}',
    'payoutApproval.state.expired': ':hourglass: *Expiré* {date} sans assez d’approbations. Rien n’a été envoyé.',
    'payoutApproval.state.cancelled': ':heavy_multiplication_x: *Annulé* par le demandeur. Rien n’a été envoyé.',
    'payoutApproval.anApprover': 'un approbateur',
    'payoutApproval.word.needsReview': 'à vérifier',
    'payoutApproval.word.unknown': 'résultat inconnu',
    'payoutApproval.word.sending': 'envoi en cours',
    'payoutApproval.word.scheduled': 'planifié',
    'payoutApproval.word.approved': 'approuvé, pas encore envoyé',
    'payoutApproval.word.sent': 'envoyé',
    'payoutApproval.word.held': 'retenu, non envoyé',
    'payoutApproval.word.pending': 'en attente d’approbation',
    'payoutApproval.word.failed': 'échec',
    'payoutApproval.word.rejected': 'rejeté',
    'payoutApproval.word.expired': 'expiré',
    'payoutApproval.word.cancelled': 'annulé',
    'payoutApproval.match.intro':
      ':mag: *Correspondance probable :* une transaction du même montant cite la référence {reference}, mais seulement dans sa description. Ce peut être ce paiement, ou un paiement sans rapport qui la mentionne : un approbateur autre que le demandeur doit trancher.',
    'payoutApproval.match.transaction': '*Transaction* {id} · {date} · *{amount}*',
    'payoutApproval.match.description': '*Description* {description}',
    'payoutApproval.match.noDescription': '(aucune)',
    'payoutApproval.and': ' et ',
    'payoutApproval.retryApprovedMissing': {
      one: ':repeat: Renvoi approuvé par {who} ; il faut encore un approbateur avant de le renvoyer.',
      other: ':repeat: Renvoi approuvé par {who} ; il faut encore {count} approbateurs avant de le renvoyer.',
    },
    'payoutApproval.retryApproved': ':repeat: Renvoi approuvé par {who}.',
  },
});
