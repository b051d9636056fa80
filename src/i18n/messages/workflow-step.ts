/** Texts of the Workflow Builder step "Request a payout": the requester's confirmation and the step's errors. */
import { defineMessages } from '../define.js';

export const workflowStep = defineMessages({
  en: {
    'workflowStep.ask.text': 'A workflow asks for a payout in your name: {summary}. Nothing is sent to approvers until you confirm.',
    'workflowStep.ask.heading': ':incoming_envelope: *Requested in your name by a workflow {starter} started.* Nothing is sent to approvers until you confirm.',
    'workflowStep.ask.headingYours': ':incoming_envelope: *Requested in your name by a workflow you started.* Nothing is sent to approvers until you confirm.',
    'workflowStep.ask.headingUnknown':
      ':incoming_envelope: *Requested in your name by a workflow* (Slack did not say who started it). Nothing is sent to approvers until you confirm.',
    'workflowStep.ask.reference': 'Reference: {reference}',
    'workflowStep.ask.note': 'Note: {note}',
    'workflowStep.ask.confirm': 'Confirm and request',
    'workflowStep.ask.decline': 'Decline',
    'workflowStep.ask.deadline': 'Answer within {minutes} minutes: after that the workflow step fails and nothing is requested.',
    'workflowStep.confirmed':
      ':white_check_mark: You confirmed the payout a workflow asked for: it is request {id}, waiting for approval. If approvers decide within {minutes} minutes, the workflow goes on with the outcome; otherwise it goes on then with the status unknown, and the outcome comes to you here in a direct message.',
    'workflowStep.declined': ':no_entry_sign: You declined the payout a workflow asked for in your name: nothing was requested, and the workflow step failed.',
    'workflowStep.refused': 'The payout a workflow asked for could not be requested: {reason}',
    'workflowStep.gone': 'This workflow step is no longer waiting for your answer.',
    'workflowStep.notRequester': 'Only the person the workflow named can answer this.',
    'workflowStep.error.inputs': 'The payout could not be requested: {problems}',
    'workflowStep.error.input': '{input}: {problem}',
    'workflowStep.error.separator': '; ',
    'workflowStep.error.requesterMissing': 'name the Slack user who requests the payout',
    'workflowStep.error.kindUnknown': 'write mobile or bank',
    'workflowStep.error.amountFormat': 'write the amount with digits and an optional dot, such as 1500.50',
    'workflowStep.error.refused': 'The payout could not be requested: {reason}',
    'workflowStep.error.notConfigured': 'Payouts are not set up in this app (APPROVAL_CHANNEL_ID is not set).',
    'workflowStep.error.declined': 'The requester declined the payout this workflow asked for in their name.',
    'workflowStep.error.notConfirmed': 'The requester did not confirm the payout in time; nothing was requested.',
    'workflowStep.error.rejected': 'Payout request {id} was rejected by {by}: {reason}',
    'workflowStep.error.expired': 'Payout request {id} expired before it was approved.',
    'workflowStep.error.cancelled': 'Payout request {id} was cancelled by its requester.',
    'workflowStep.error.failed': 'Payout request {id} failed: {reason}',
    'workflowStep.anApprover': 'an approver',
  },
  fr: {
    'workflowStep.ask.text': 'Un workflow demande un paiement en votre nom : {summary}. Rien n’est envoyé aux approbateurs avant votre confirmation.',
    'workflowStep.ask.heading':
      ':incoming_envelope: *Demandé en votre nom par un workflow lancé par {starter}.* Rien n’est envoyé aux approbateurs avant votre confirmation.',
    'workflowStep.ask.headingYours':
      ':incoming_envelope: *Demandé en votre nom par un workflow que vous avez lancé.* Rien n’est envoyé aux approbateurs avant votre confirmation.',
    'workflowStep.ask.headingUnknown':
      ':incoming_envelope: *Demandé en votre nom par un workflow* (Slack n’a pas dit qui l’a lancé). Rien n’est envoyé aux approbateurs avant votre confirmation.',
    'workflowStep.ask.reference': 'Référence : {reference}',
    'workflowStep.ask.note': 'Note : {note}',
    'workflowStep.ask.confirm': 'Confirmer et demander',
    'workflowStep.ask.decline': 'Refuser',
    'workflowStep.ask.deadline': 'Répondez dans les {minutes} minutes : passé ce délai, l’étape du workflow échoue et rien n’est demandé.',
    'workflowStep.confirmed':
      ':white_check_mark: Vous avez confirmé le paiement demandé par un workflow : c’est la demande {id}, en attente d’approbation. Si les approbateurs décident d’ici {minutes} minutes, le workflow continue avec le résultat ; sinon il continue alors avec le statut inconnu, et le résultat vous arrive ici en message direct.',
    'workflowStep.declined':
      ':no_entry_sign: Vous avez refusé le paiement qu’un workflow demandait en votre nom : rien n’a été demandé, et l’étape du workflow a échoué.',
    'workflowStep.refused': 'Le paiement demandé par un workflow n’a pas pu être demandé : {reason}',
    'workflowStep.gone': 'Cette étape de workflow n’attend plus votre réponse.',
    'workflowStep.notRequester': 'Seule la personne nommée par le workflow peut répondre.',
    'workflowStep.error.inputs': 'Le paiement n’a pas pu être demandé : {problems}',
    'workflowStep.error.input': '{input} : {problem}',
    'workflowStep.error.separator': ' ; ',
    'workflowStep.error.requesterMissing': 'indiquez l’utilisateur Slack qui demande le paiement',
    'workflowStep.error.kindUnknown': 'écrivez mobile ou bank',
    'workflowStep.error.amountFormat': 'écrivez le montant en chiffres avec un point facultatif, par exemple 1500.50',
    'workflowStep.error.refused': 'Le paiement n’a pas pu être demandé : {reason}',
    'workflowStep.error.notConfigured': 'Les paiements ne sont pas configurés dans cette application (APPROVAL_CHANNEL_ID n’est pas défini).',
    'workflowStep.error.declined': 'Le demandeur a refusé le paiement que ce workflow demandait en son nom.',
    'workflowStep.error.notConfirmed': 'Le demandeur n’a pas confirmé le paiement à temps ; rien n’a été demandé.',
    'workflowStep.error.rejected': 'La demande de paiement {id} a été rejetée par {by} : {reason}',
    'workflowStep.error.expired': 'La demande de paiement {id} a expiré avant d’être approuvée.',
    'workflowStep.error.cancelled': 'La demande de paiement {id} a été annulée par son demandeur.',
    'workflowStep.error.failed': 'La demande de paiement {id} a échoué : {reason}',
    'workflowStep.anApprover': 'un approbateur',
  },
});
