/**
 * Texts of why an action on a payout was refused, by the domain's codes, and of what could not be
 * done. The keys keep the `payoutApproval.` prefix of the approval side they belong to.
 */
import { defineMessages } from '../define.js';

export const payoutRefusals = defineMessages({
  en: {
    // Refusals, by the domain's codes (src/payouts/policy.ts, service.ts, settlement.ts).
    'payoutApproval.refusal.notFound': 'There is no payout {id}.',
    'payoutApproval.refusal.noSuchPayout': 'There is no such payout.',
    'payoutApproval.refusal.notRequester': 'You are not on the list of people who may request payouts.',
    'payoutApproval.refusal.notApprover.approve': 'You are not on the list of people who may approve payouts.',
    'payoutApproval.refusal.notApprover.reject': 'Only approvers can reject a payout.',
    'payoutApproval.refusal.notApprover.retry': 'Only approvers can send a payout again.',
    'payoutApproval.refusal.notApprover.decideMatch': 'Only approvers can say whether a transaction is this payout.',
    'payoutApproval.refusal.ownRequest.approve': 'You requested this payout, so your approval cannot count: another approver must approve it.',
    'payoutApproval.refusal.ownRequest.reject': 'You requested this payout: cancel it instead of rejecting it.',
    'payoutApproval.refusal.ownRequest.retry': 'You requested this payout, so another approver must send it again.',
    'payoutApproval.refusal.ownRequest.decideMatch': 'You requested this payout, so another approver must say whether this transaction is it.',
    'payoutApproval.refusal.alreadyApproved': 'You have already approved this payout: a second approval must come from someone else.',
    'payoutApproval.refusal.alreadyAgreedToRetry': 'You have already agreed to send payout {id} again: another approver must agree before it is sent.',
    'payoutApproval.refusal.expired': 'Payout {id} has expired.',
    'payoutApproval.refusal.state.pending': 'Payout {id} is waiting for approval.',
    'payoutApproval.refusal.state.approved': 'Payout {id} is already approved.',
    'payoutApproval.refusal.state.executing': 'Payout {id} is being sent.',
    'payoutApproval.refusal.state.completed': 'Payout {id} was already sent.',
    'payoutApproval.refusal.state.failed': 'Payout {id} has failed.',
    'payoutApproval.refusal.state.unknown': 'Payout {id} is being checked with the Fleet API.',
    'payoutApproval.refusal.state.rejected': 'Payout {id} was rejected.',
    'payoutApproval.refusal.state.expired': 'Payout {id} has expired.',
    'payoutApproval.refusal.state.cancelled': 'Payout {id} was cancelled.',
    'payoutApproval.refusal.cancelNotRequester': 'Only the person who requested this payout can cancel it.',
    'payoutApproval.refusal.cancelHasApproval': 'This payout already has an approval, so it can no longer be cancelled: ask an approver to reject it.',
    'payoutApproval.refusal.stillSearching':
      "Payout {id} is still being looked for in the Fleet API's transactions; it can be sent again only if it is not found.",
    'payoutApproval.refusal.retryRequesterNotAllowed': 'Payout {id} is not sent again: its requester may no longer request payouts.',
    'payoutApproval.refusal.retryRolesUnavailable': 'Could not check roles with Slack, so payout {id} was not sent again. Try again in a minute.',
    'payoutApproval.refusal.likelyMatch':
      'A transaction that may be this payout was found: confirm it or answer "Not this one" on the approval message first. Nothing was sent again.',
    'payoutApproval.refusal.matchGone': 'That transaction is no longer proposed for payout {id}: look at its approval message again.',
    'payoutApproval.refusal.reasonTooShort': 'Give a reason for the rejection (at least 3 characters): the requester will see it.',
    'payoutApproval.refusal.reasonTooLong': 'Keep the reason to 500 characters.',
    'payoutApproval.refusal.noMaximum': 'Payouts in {currency} have no maximum set, so they cannot be sent.',
    'payoutApproval.refusal.overMaximum': 'One payout can send at most {max}.',
    'payoutApproval.refusal.noDailyLimit': 'No daily limit is set for {currency}, so payouts in it cannot be requested.',
    'payoutApproval.refusal.overDailyLimit':
      'This would take you over your daily limit of {limit} (the team’s day, TEAM_TIMEZONE): you can still request {left} today.',
    'payoutApproval.refusal.couldNotCheck': "Could not check the Fleet API's transactions: {problem}.",
    'payoutApproval.refusal.couldNotCheckRetry':
      'Could not check every transaction back to when payout {id} was requested ({problem}), so it may have gone through. Nothing was sent again; try again in a few minutes.',
    'payoutApproval.refusal.invalid': 'Some details of the payout are not valid; correct them and submit again.',
    'payoutApproval.refusal.duplicateReference': 'This reference was already used: choose another, or leave it empty.',
    'payoutApproval.refusal.referenceReserved.series':
      'This reference is kept for payout #{number} of the scheduled request {id}: choose another, or leave it empty.',
    'payoutApproval.refusal.referenceReserved.bulk': 'This reference is kept for row {row} of the bulk payout {id}: choose another, or leave it empty.',
    'payoutApproval.refusal.fleetUnavailable': 'The Fleet API could not be reached. Try again in a minute.',
    // What could not be done, completing "Could not …" (src/slack/refusals/failures.ts's failureText).
    'failure.action.openApproval': 'open the approval',
    'failure.action.openRejection': 'open the rejection',
    'failure.action.cancelPayout': 'cancel the payout',
    'failure.action.retryPayout': 'send the payout again',
    'failure.action.confirmMatch': 'confirm the transaction',
    'failure.action.rejectMatch': 'turn the transaction down',
  },
  fr: {
    'payoutApproval.refusal.notFound': 'Il n’y a pas de paiement {id}.',
    'payoutApproval.refusal.noSuchPayout': 'Ce paiement n’existe pas.',
    'payoutApproval.refusal.notRequester': 'Vous ne figurez pas sur la liste des personnes autorisées à demander des paiements.',
    'payoutApproval.refusal.notApprover.approve': 'Vous ne figurez pas sur la liste des personnes autorisées à approuver des paiements.',
    'payoutApproval.refusal.notApprover.reject': 'Seuls les approbateurs peuvent rejeter un paiement.',
    'payoutApproval.refusal.notApprover.retry': 'Seuls les approbateurs peuvent renvoyer un paiement.',
    'payoutApproval.refusal.notApprover.decideMatch': 'Seuls les approbateurs peuvent dire si une transaction correspond à ce paiement.',
    'payoutApproval.refusal.ownRequest.approve':
      'Vous avez demandé ce paiement, votre approbation ne peut donc pas compter : un autre approbateur doit l’approuver.',
    'payoutApproval.refusal.ownRequest.reject': 'Vous avez demandé ce paiement : annulez-le plutôt que de le rejeter.',
    'payoutApproval.refusal.ownRequest.retry': 'Vous avez demandé ce paiement, un autre approbateur doit donc le renvoyer.',
    'payoutApproval.refusal.ownRequest.decideMatch': 'Vous avez demandé ce paiement, un autre approbateur doit donc dire si cette transaction lui correspond.',
    'payoutApproval.refusal.alreadyApproved': 'Vous avez déjà approuvé ce paiement : la deuxième approbation doit venir de quelqu’un d’autre.',
    'payoutApproval.refusal.alreadyAgreedToRetry':
      'Vous avez déjà accepté de renvoyer le paiement {id} : un autre approbateur doit aussi accepter avant qu’il soit envoyé.',
    'payoutApproval.refusal.expired': 'Le paiement {id} a expiré.',
    'payoutApproval.refusal.state.pending': 'Le paiement {id} attend une approbation.',
    'payoutApproval.refusal.state.approved': 'Le paiement {id} est déjà approuvé.',
    'payoutApproval.refusal.state.executing': 'Le paiement {id} est en cours d’envoi.',
    'payoutApproval.refusal.state.completed': 'Le paiement {id} a déjà été envoyé.',
    'payoutApproval.refusal.state.failed': 'Le paiement {id} a échoué.',
    'payoutApproval.refusal.state.unknown': 'Le paiement {id} est en cours de vérification auprès de l’API Fleet.',
    'payoutApproval.refusal.state.rejected': 'Le paiement {id} a été rejeté.',
    'payoutApproval.refusal.state.expired': 'Le paiement {id} a expiré.',
    'payoutApproval.refusal.state.cancelled': 'Le paiement {id} a été annulé.',
    'payoutApproval.refusal.cancelNotRequester': 'Seule la personne qui a demandé ce paiement peut l’annuler.',
    'payoutApproval.refusal.cancelHasApproval': 'Ce paiement a déjà une approbation et ne peut plus être annulé : demandez à un approbateur de le rejeter.',
    'payoutApproval.refusal.stillSearching':
      'Le paiement {id} est encore recherché dans les transactions de l’API Fleet ; il ne pourra être renvoyé que s’il n’y est pas trouvé.',
    'payoutApproval.refusal.retryRequesterNotAllowed':
      'Le paiement {id} n’est pas renvoyé : la personne qui l’a demandé n’est plus autorisée à demander des paiements.',
    'payoutApproval.refusal.retryRolesUnavailable':
      'Impossible de vérifier les rôles auprès de Slack : le paiement {id} n’a pas été renvoyé. Réessayez dans une minute.',
    'payoutApproval.refusal.likelyMatch':
      'Une transaction qui pourrait être ce paiement a été trouvée : confirmez-la d’abord, ou répondez « Pas celle-ci » sur le message d’approbation. Rien n’a été renvoyé.',
    'payoutApproval.refusal.matchGone': 'Cette transaction n’est plus proposée pour le paiement {id} : consultez à nouveau son message d’approbation.',
    'payoutApproval.refusal.reasonTooShort': 'Indiquez le motif du rejet (3 caractères au moins) : le demandeur le verra.',
    'payoutApproval.refusal.reasonTooLong': 'Le motif ne doit pas dépasser 500 caractères.',
    'payoutApproval.refusal.noMaximum': 'Aucun montant maximum n’est défini pour les paiements en {currency} : ils ne peuvent donc pas être envoyés.',
    'payoutApproval.refusal.overMaximum': 'Un paiement ne peut pas dépasser {max}.',
    'payoutApproval.refusal.noDailyLimit': 'Aucune limite journalière n’est définie pour les paiements en {currency} : ils ne peuvent donc pas être demandés.',
    'payoutApproval.refusal.overDailyLimit':
      'Vous dépasseriez votre limite journalière de {limit} (jour de l’équipe, TEAM_TIMEZONE) : vous pouvez encore demander {left} aujourd’hui.',
    'payoutApproval.refusal.couldNotCheck': 'Impossible de vérifier les transactions de l’API Fleet : {problem}.',
    'payoutApproval.refusal.couldNotCheckRetry':
      'Impossible de vérifier toutes les transactions depuis la demande du paiement {id} ({problem}) : il a donc pu passer. Rien n’a été renvoyé ; réessayez dans quelques minutes.',
    'payoutApproval.refusal.invalid': 'Certaines informations du paiement ne sont pas valides : corrigez-les, puis envoyez à nouveau.',
    'payoutApproval.refusal.duplicateReference': 'Cette référence a déjà été utilisée : choisissez-en une autre, ou laissez le champ vide.',
    'payoutApproval.refusal.referenceReserved.series':
      'Cette référence est réservée au paiement n° {number} de la demande planifiée {id} : choisissez-en une autre, ou laissez le champ vide.',
    'payoutApproval.refusal.referenceReserved.bulk':
      'Cette référence est réservée à la ligne {row} du paiement groupé {id} : choisissez-en une autre, ou laissez le champ vide.',
    'payoutApproval.refusal.fleetUnavailable': 'L’API Fleet est injoignable. Réessayez dans une minute.',
    'failure.action.openApproval': 'ouvrir l’approbation',
    'failure.action.openRejection': 'ouvrir le rejet',
    'failure.action.cancelPayout': 'annuler le paiement',
    'failure.action.retryPayout': 'renvoyer le paiement',
    'failure.action.confirmMatch': 'confirmer la transaction',
    'failure.action.rejectMatch': 'écarter la transaction',
  },
});
