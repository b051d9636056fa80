/**
 * Texts of the payout approval side: the approval channel's message, the approve and reject modals,
 * what approvers are told, the requester's direct messages, and the notices to approvers. Refusals
 * are in `payout-refusals.ts`, how a payout reads in `payout-details.ts`.
 */
import { defineMessages } from '../define.js';

export const payoutApproval = defineMessages({
  en: {
    // The approval channel's message and the approve and reject modals (src/slack/views/payout-approval.ts).
    'payoutApproval.title': 'Payout {id}',
    'payoutApproval.header': 'Payout {id} · {amount}',
    'payoutApproval.asks': '{user} asks to send {summary}.',
    'payoutApproval.status': '*Status*\n{state}',
    'payoutApproval.requestedAt': 'Requested {date} · {command} for its history',
    'payoutApproval.resubmitOf': ':repeat: Corrects the rejected request *{id}* ({command} for its history).',
    'payoutApproval.throughWorkflow': ":zap: Requested by a workflow in {user}'s name; they confirmed it in their direct message with the app.",
    'payoutApproval.dm.resubmit': 'Edit and resubmit',
    'payoutApproval.transactionSuffix': ' (transaction {id})',
    'payoutApproval.button.approve': 'Approve',
    'payoutApproval.button.reject': 'Reject',
    'payoutApproval.button.cancel': 'Cancel request',
    'payoutApproval.confirmCancel.title': 'Cancel this request?',
    'payoutApproval.confirmCancel.text': '{id} will not be sent, and nobody can approve it any more. Sending it later takes a new request.',
    'payoutApproval.confirmCancel.confirm': 'Cancel request',
    'payoutApproval.confirmCancel.deny': 'Keep it',
    'payoutApproval.button.confirmMatch': 'Confirm it was sent',
    'payoutApproval.button.rejectMatch': 'Not this one',
    'payoutApproval.button.retry': 'Retry with the same reference',
    'payoutApproval.confirmMatch.title': 'Is this the payout?',
    'payoutApproval.confirmMatch.text':
      'The payout is then marked sent with this transaction, and nobody can send it again. Confirm only if you are sure this entry is this payout.',
    'payoutApproval.confirmMatch.confirm': 'It is this payout',
    'payoutApproval.confirmMatch.deny': 'Not sure',
    'payoutApproval.confirmRetry.title': 'Send this payout again?',
    'payoutApproval.confirmRetry.text':
      "The first attempt was not found in the Fleet API's transactions, but it may still have gone through. Check with the Fleet provider first. Sending again uses the same reference, {reference}.{approvers}",
    'payoutApproval.confirmRetry.approvers': {
      one: ' It needs {count} approver, as the payout did.',
      other: ' It needs {count} approvers, as the payout did.',
    },
    'payoutApproval.confirmRetry.confirm': 'Send again',
    'payoutApproval.confirmRetry.deny': 'Not yet',
    'payoutApproval.approve.title': 'Approve {id}',
    'payoutApproval.approve.submit': 'Approve',
    'payoutApproval.approve.submitAndSend': 'Approve and send',
    'payoutApproval.approve.held':
      ":no_entry: {held}\n:warning: *Approve and send checks everyone's roles again and sends the payout to the Fleet API if they allow it.*",
    'payoutApproval.approve.last':
      ':warning: *Your approval is the last one needed: the payout is sent to the Fleet API as soon as you press Approve and send*, once the roles of the requester and approvers are checked again with Slack.',
    'payoutApproval.approve.oneMore': ':information_source: After yours, one more approver must approve before anything is sent.',
    'payoutApproval.modal.close': 'Cancel',
    'payoutApproval.reject.title': 'Reject {id}',
    'payoutApproval.reject.submit': 'Reject',
    'payoutApproval.reject.reason': 'Reason',
    'payoutApproval.reject.hint': 'The requester sees it.',
    'payoutApproval.outcome.notApproved': 'Not approved',
    'payoutApproval.outcome.refused': ':no_entry: {why}\nNothing was changed.',
    'payoutApproval.outcome.recorded': 'Your approval is recorded.\n{state}',
    'payoutApproval.outcome.recordedHeld': ':no_entry: Your approval is recorded, but nothing was sent. {held}',
    'payoutApproval.outcome.recordedWaiting': {
      one: ':white_check_mark: Your approval is recorded. One more approver must approve before anything is sent.',
      other: ':white_check_mark: Your approval is recorded. {count} more approvers must approve before anything is sent.',
    },

    // What approvers are told by the buttons and modals (src/slack/listeners/payout-approval.ts).
    'payoutApproval.retryAgreed': {
      one: ':repeat: Your agreement to send payout {id} again is recorded. It needs {count} approver, as the payout did: nothing is sent until another approver agrees.',
      other:
        ':repeat: Your agreement to send payout {id} again is recorded. It needs {count} approvers, as the payout did: nothing is sent until another approver agrees.',
    },
    'payoutApproval.approve.staleTitle': 'Approve payout',
    'payoutApproval.approve.stale': 'This approval is out of date. Use the buttons on the approval message.',
    'payoutApproval.approve.recording': ':hourglass_flowing_sand: Recording your approval…',
    'payoutApproval.reject.staleTitle': 'Reject payout',
    'payoutApproval.reject.stale': 'This rejection is out of date. Use the buttons on the approval message.',
    'payoutApproval.reject.done': ':no_entry: Rejected. The requester has been sent your reason.',

    // The requester's direct messages (src/slack/views/payout-updates.ts).
    'payoutApproval.dm.payout': '*{id}* ({summary})',
    'payoutApproval.dm.anApprover': 'An approver',
    'payoutApproval.dm.transaction': ' Transaction {id}.',
    'payoutApproval.dm.inChannel': ' in {channel}',
    'payoutApproval.dm.requested':
      ':inbox_tray: Your payout request {payout} is waiting for approval{where}. Reference {reference}. You can cancel it from the approval message until someone approves it.',
    'payoutApproval.dm.approved': ':+1: {by} approved your payout {payout}. One more approver must approve it before it is sent.',
    'payoutApproval.dm.approvalsRaised': ':busts_in_silhouette: Your payout {payout} now needs two approvers. {why}',
    'payoutApproval.dm.held':
      ':no_entry: Your payout {payout} was not sent: you may no longer request payouts. Ask your Slack admin; once your access is restored, an approver can approve it again.',
    'payoutApproval.dm.heldByGate':
      ':hourglass_flowing_sand: Your payout {payout} was not sent yet: {why}. Checked again just before sending, it waits for the approvers; the approval message says what it needs.',
    'payoutApproval.dm.sent': ':white_check_mark: Your payout {payout} was sent.{transaction}',
    'payoutApproval.dm.failed': ':x: Your payout {payout} failed: {reason} No money moved.',
    'payoutApproval.conflict': '{refused} A payout with this reference may already exist.',
    'payoutApproval.dm.unknown':
      ":grey_question: The Fleet API gave no clear answer for your payout {payout} ({reason}). It may have gone through: the app is checking the Fleet API's transactions and will tell you.",
    'payoutApproval.dm.needsReview':
      ":warning: Your payout {payout} was not found in the Fleet API's transactions. It may or may not have gone through; an approver will check and may send it again with the same reference.",
    'payoutApproval.dm.retried': ':repeat: {by} sent your payout {payout} again with the same reference, after review.',
    'payoutApproval.dm.matchConfirmed':
      ":white_check_mark: Your payout {payout} was sent: {by} confirmed its transaction in the Fleet API's list.{transaction}",
    'payoutApproval.dm.rejected': ':no_entry: {by} rejected your payout {payout}: {reason}',
    'payoutApproval.dm.expired':
      ':hourglass: Your payout request {payout} expired without enough approvals. Nothing was sent; request it again if it is still needed.',
    'payoutApproval.dm.cancelled': ':heavy_multiplication_x: Your payout request {payout} is cancelled. Nothing was sent.',
    // Telling approvers (src/slack/publishers/approver-notices.ts): the call in the approval message, the reminder before expiry.
    'payoutApproval.callApprovers': ':bell: {approvers}: this request waits for your approval.',
    'payoutApproval.reminder.title': 'Reminder: payout {id} waits for your approval',
    'payoutApproval.reminder.text':
      ':alarm_clock: *Reminder:* {user} asks to send {summary} (payout *{id}*). It waits for your approval and expires {expires}. {where}',
    'payoutApproval.reminder.link': '<{url}|Open the approval message>',
    'payoutApproval.reminder.inChannel': 'Its approval message is in {channel}.',
    'payoutApproval.event.requested': 'requested',
    'payoutApproval.event.approved': 'approved',
    'payoutApproval.event.approvalsRaised': 'approvals raised',
    'payoutApproval.event.held': 'held',
    'payoutApproval.event.completed': 'completed',
    'payoutApproval.event.reconciled': 'reconciled',
    'payoutApproval.event.failed': 'failed',
    'payoutApproval.event.unknown': 'unknown',
    'payoutApproval.event.needsReview': 'needs review',
    'payoutApproval.event.retried': 'retried',
    'payoutApproval.event.matchConfirmed': 'match confirmed',
    'payoutApproval.event.rejected': 'rejected',
    'payoutApproval.event.expired': 'expired',
    'payoutApproval.event.cancelled': 'cancelled',
  },
  fr: {
    'payoutApproval.title': 'Paiement {id}',
    'payoutApproval.header': 'Paiement {id} · {amount}',
    'payoutApproval.asks': '{user} demande l’envoi de {summary}.',
    'payoutApproval.status': '*Statut*\n{state}',
    'payoutApproval.requestedAt': 'Demandé {date} · {command} pour son historique',
    'payoutApproval.resubmitOf': ':repeat: Corrige la demande rejetée *{id}* ({command} pour son historique).',
    'payoutApproval.throughWorkflow': ":zap: Demandé par un workflow au nom de {user}, qui l'a confirmé dans sa conversation privée avec l'app.",
    'payoutApproval.dm.resubmit': 'Modifier et soumettre à nouveau',
    'payoutApproval.transactionSuffix': ' (transaction {id})',
    'payoutApproval.button.approve': 'Approuver',
    'payoutApproval.button.reject': 'Rejeter',
    'payoutApproval.button.cancel': 'Annuler la demande',
    'payoutApproval.confirmCancel.title': 'Annuler cette demande ?',
    'payoutApproval.confirmCancel.text':
      '{id} ne sera pas envoyée et personne ne pourra plus l’approuver. Pour l’envoyer plus tard, il faudra une nouvelle demande.',
    'payoutApproval.confirmCancel.confirm': 'Annuler la demande',
    'payoutApproval.confirmCancel.deny': 'La garder',
    'payoutApproval.button.confirmMatch': 'Confirmer l’envoi',
    'payoutApproval.button.rejectMatch': 'Pas celle-ci',
    'payoutApproval.button.retry': 'Renvoyer avec la même référence',
    'payoutApproval.confirmMatch.title': 'Est-ce bien ce paiement ?',
    'payoutApproval.confirmMatch.text':
      'Le paiement sera alors marqué comme envoyé avec cette transaction, et personne ne pourra le renvoyer. Ne confirmez que si vous êtes sûr que cette ligne est bien ce paiement.',
    'payoutApproval.confirmMatch.confirm': 'C’est ce paiement',
    'payoutApproval.confirmMatch.deny': 'Pas sûr',
    'payoutApproval.confirmRetry.title': 'Renvoyer ce paiement ?',
    'payoutApproval.confirmRetry.text':
      'La première tentative n’a pas été trouvée dans les transactions de l’API Fleet, mais elle a pu passer. Vérifiez d’abord auprès du fournisseur Fleet. Le renvoi utilise la même référence, {reference}.{approvers}',
    'payoutApproval.confirmRetry.approvers': {
      one: ' Il faut {count} approbateur, comme pour le paiement.',
      other: ' Il faut {count} approbateurs, comme pour le paiement.',
    },
    'payoutApproval.confirmRetry.confirm': 'Renvoyer',
    'payoutApproval.confirmRetry.deny': 'Pas encore',
    'payoutApproval.approve.title': 'Approuver {id}',
    'payoutApproval.approve.submit': 'Approuver',
    'payoutApproval.approve.submitAndSend': 'Approuver et envoyer',
    'payoutApproval.approve.held':
      ':no_entry: {held}\n:warning: *Approuver et envoyer revérifie les rôles de chacun et envoie le paiement à l’API Fleet s’ils le permettent.*',
    'payoutApproval.approve.last':
      ':warning: *Votre approbation est la dernière nécessaire : le paiement part vers l’API Fleet dès que vous appuyez sur Approuver et envoyer*, une fois les rôles du demandeur et des approbateurs revérifiés auprès de Slack.',
    'payoutApproval.approve.oneMore': ':information_source: Après la vôtre, un autre approbateur doit encore approuver avant tout envoi.',
    'payoutApproval.modal.close': 'Annuler',
    'payoutApproval.reject.title': 'Rejeter {id}',
    'payoutApproval.reject.submit': 'Rejeter',
    'payoutApproval.reject.reason': 'Motif',
    'payoutApproval.reject.hint': 'Le demandeur le verra.',
    'payoutApproval.outcome.notApproved': 'Non approuvé',
    'payoutApproval.outcome.refused': ':no_entry: {why}\nRien n’a été modifié.',
    'payoutApproval.outcome.recorded': 'Votre approbation est enregistrée.\n{state}',
    'payoutApproval.outcome.recordedHeld': ':no_entry: Votre approbation est enregistrée, mais rien n’a été envoyé. {held}',
    'payoutApproval.outcome.recordedWaiting': {
      one: ':white_check_mark: Votre approbation est enregistrée. Un autre approbateur doit encore approuver avant tout envoi.',
      other: ':white_check_mark: Votre approbation est enregistrée. {count} autres approbateurs doivent encore approuver avant tout envoi.',
    },

    'payoutApproval.retryAgreed': {
      one: ':repeat: Votre accord pour renvoyer le paiement {id} est enregistré. Il faut {count} approbateur, comme pour le paiement : rien n’est envoyé tant qu’un autre approbateur n’a pas donné son accord.',
      other:
        ':repeat: Votre accord pour renvoyer le paiement {id} est enregistré. Il faut {count} approbateurs, comme pour le paiement : rien n’est envoyé tant qu’un autre approbateur n’a pas donné son accord.',
    },
    'payoutApproval.approve.staleTitle': 'Approuver le paiement',
    'payoutApproval.approve.stale': 'Cette approbation n’est plus à jour. Utilisez les boutons du message d’approbation.',
    'payoutApproval.approve.recording': ':hourglass_flowing_sand: Enregistrement de votre approbation…',
    'payoutApproval.reject.staleTitle': 'Rejeter le paiement',
    'payoutApproval.reject.stale': 'Ce rejet n’est plus à jour. Utilisez les boutons du message d’approbation.',
    'payoutApproval.reject.done': ':no_entry: Rejeté. Votre motif a été envoyé au demandeur.',

    'payoutApproval.dm.payout': '*{id}* ({summary})',
    'payoutApproval.dm.anApprover': 'Un approbateur',
    'payoutApproval.dm.transaction': ' Transaction {id}.',
    'payoutApproval.dm.inChannel': ' dans {channel}',
    'payoutApproval.dm.requested':
      ':inbox_tray: Votre demande de paiement {payout} attend une approbation{where}. Référence {reference}. Vous pouvez l’annuler depuis le message d’approbation tant que personne ne l’a approuvée.',
    'payoutApproval.dm.approved': ':+1: {by} a approuvé votre paiement {payout}. Un autre approbateur doit encore l’approuver avant qu’il soit envoyé.',
    'payoutApproval.dm.approvalsRaised': ':busts_in_silhouette: Votre paiement {payout} nécessite désormais deux approbateurs. {why}',
    'payoutApproval.dm.held':
      ':no_entry: Votre paiement {payout} n’a pas été envoyé : vous n’êtes plus autorisé à demander des paiements. Adressez-vous à votre administrateur Slack ; une fois votre accès rétabli, un approbateur pourra l’approuver de nouveau.',
    'payoutApproval.dm.heldByGate':
      ':hourglass_flowing_sand: Votre paiement {payout} n’a pas encore été envoyé : {why}. Vérifié de nouveau juste avant l’envoi, il attend les approbateurs ; le message d’approbation dit ce qu’il lui faut.',
    'payoutApproval.dm.sent': ':white_check_mark: Votre paiement {payout} a été envoyé.{transaction}',
    'payoutApproval.dm.failed': ':x: Votre paiement {payout} a échoué : {reason} Aucun argent n’a bougé.',
    'payoutApproval.conflict': '{refused} Un paiement avec cette référence existe peut-être déjà.',
    'payoutApproval.dm.unknown':
      ':grey_question: L’API Fleet n’a pas donné de réponse claire pour votre paiement {payout} ({reason}). Il a pu passer : l’application vérifie les transactions de l’API Fleet et vous tiendra informé.',
    'payoutApproval.dm.needsReview':
      ':warning: Votre paiement {payout} n’a pas été trouvé dans les transactions de l’API Fleet. Il est peut-être passé, peut-être pas ; un approbateur va vérifier et pourra le renvoyer avec la même référence.',
    'payoutApproval.dm.retried': ':repeat: {by} a renvoyé votre paiement {payout} avec la même référence, après vérification.',
    'payoutApproval.dm.matchConfirmed':
      ':white_check_mark: Votre paiement {payout} a été envoyé : {by} a confirmé sa transaction dans la liste de l’API Fleet.{transaction}',
    'payoutApproval.dm.rejected': ':no_entry: {by} a rejeté votre paiement {payout} : {reason}',
    'payoutApproval.dm.expired':
      ':hourglass: Votre demande de paiement {payout} a expiré sans assez d’approbations. Rien n’a été envoyé ; refaites la demande si elle est toujours nécessaire.',
    'payoutApproval.dm.cancelled': ':heavy_multiplication_x: Votre demande de paiement {payout} est annulée. Rien n’a été envoyé.',
    'payoutApproval.callApprovers': ':bell: {approvers} : cette demande attend votre approbation.',
    'payoutApproval.reminder.title': 'Rappel : le paiement {id} attend votre approbation',
    'payoutApproval.reminder.text':
      ':alarm_clock: *Rappel :* {user} demande l’envoi de {summary} (paiement *{id}*). Il attend votre approbation et expire {expires}. {where}',
    'payoutApproval.reminder.link': '<{url}|Ouvrir le message d’approbation>',
    'payoutApproval.reminder.inChannel': 'Son message d’approbation est dans {channel}.',
    'payoutApproval.event.requested': 'demandé',
    'payoutApproval.event.approved': 'approuvé',
    'payoutApproval.event.approvalsRaised': 'deux approbateurs nécessaires',
    'payoutApproval.event.held': 'retenu',
    'payoutApproval.event.completed': 'envoyé',
    'payoutApproval.event.reconciled': 'retrouvé et envoyé',
    'payoutApproval.event.failed': 'échec',
    'payoutApproval.event.unknown': 'résultat inconnu',
    'payoutApproval.event.needsReview': 'à vérifier',
    'payoutApproval.event.retried': 'renvoyé',
    'payoutApproval.event.matchConfirmed': 'transaction confirmée',
    'payoutApproval.event.rejected': 'rejeté',
    'payoutApproval.event.expired': 'expiré',
    'payoutApproval.event.cancelled': 'annulé',
  },
});
