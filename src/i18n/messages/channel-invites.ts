/** What the app says when Slack refuses its posts in a channel nobody invited it to. */
import { defineMessages } from '../define.js';

export const channelInvites = defineMessages({
  en: {
    'invite.theApp': 'the app',
    'invite.howTo': 'in {channel}, type `/invite` and pick {bot}',
    'invite.use.approvals':
      ':warning: Approval messages cannot be posted in {channel}: invite {bot} to {channel} ({howTo}). Requests waiting for approval show there once it is in.',
    'invite.use.feed': ':warning: The feed cannot post in {channel}: invite {bot} to {channel} ({howTo}). It catches up on what it missed once it is in.',
    'invite.use.digest':
      ':warning: The daily digest cannot be posted in {channel}: invite {bot} to {channel} ({howTo}). The missed digest is posted once it is in.',
    'invite.use.alerts': ':warning: Alerts cannot be posted in {channel}: invite {bot} to {channel} ({howTo}).',
    'invite.requestWaiting':
      ':warning: Approvers cannot see this request yet: I am not in {channel}. Invite {bot} to {channel} ({howTo}); the request shows there shortly after.',
  },
  fr: {
    'invite.theApp': 'l’application',
    'invite.howTo': 'dans {channel}, tapez `/invite` et choisissez {bot}',
    'invite.use.approvals':
      ':warning: Les messages d’approbation ne peuvent pas être publiés dans {channel} : invitez {bot} dans {channel} ({howTo}). Les demandes en attente d’approbation y apparaîtront ensuite.',
    'invite.use.feed':
      ':warning: Le flux ne peut pas publier dans {channel} : invitez {bot} dans {channel} ({howTo}). Il rattrapera ce qu’il a manqué ensuite.',
    'invite.use.digest':
      ':warning: Le résumé quotidien ne peut pas être publié dans {channel} : invitez {bot} dans {channel} ({howTo}). Le résumé manqué sera publié ensuite.',
    'invite.use.alerts': ':warning: Les alertes ne peuvent pas être publiées dans {channel} : invitez {bot} dans {channel} ({howTo}).',
    'invite.requestWaiting':
      ':warning: Les approbateurs ne voient pas encore cette demande : je ne suis pas dans {channel}. Invitez {bot} dans {channel} ({howTo}) ; la demande y apparaîtra peu après.',
  },
});
