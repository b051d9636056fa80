/** Texts of `/fleet balance`, `/fleet help` and the `/fleet` command itself. */
import { defineMessages } from '../define.js';

export const account = defineMessages({
  en: {
    'balance.help.usage': '/fleet balance',
    'balance.help.description': 'The fleet account balance in every currency, with a Refresh button.',
    'balance.title': 'Fleet account balance',
    'balance.none': 'The Fleet API returned no balances.',
    'balance.readAt': 'Read {date}',
    'balance.sharedBy': '{when} · shared by {user}',
    'balance.refresh': 'Refresh',
    'balance.share': 'Share in channel',
    'balance.shareExpired': 'These figures can no longer be shared from this message. Press *Refresh*, then share the new reading.',
    'balance.line': '{currency}: {amount}',
    'balance.text': '{title}: {lines}',
    'balance.textNone': '{title}: none',
    'help.intro': 'Here is what I can do:',
    'help.unknown': "I don't know {word}. Here is what I can do:",
    'help.footer': 'Replies with account data are visible only to you until you press *Share in channel*.',
  },
  fr: {
    'balance.help.usage': '/fleet solde',
    'balance.help.description': 'Le solde du compte de flotte dans chaque devise, avec un bouton Actualiser.',
    'balance.title': 'Solde du compte de flotte',
    'balance.none': 'L’API Fleet n’a renvoyé aucun solde.',
    'balance.readAt': 'Lu {date}',
    'balance.sharedBy': '{when} · partagé par {user}',
    'balance.refresh': 'Actualiser',
    'balance.share': 'Partager dans le canal',
    'balance.shareExpired': 'Ces montants ne peuvent plus être partagés depuis ce message. Appuyez sur *Actualiser*, puis partagez la nouvelle lecture.',
    'balance.line': '{currency} : {amount}',
    'balance.text': '{title} : {lines}',
    'balance.textNone': '{title} : aucun',
    'help.intro': 'Voici ce que je sais faire :',
    'help.unknown': 'Je ne connais pas {word}. Voici ce que je sais faire :',
    'help.footer': 'Les réponses contenant des données du compte ne sont visibles que par vous tant que vous n’appuyez pas sur *Partager dans le canal*.',
  },
});
