/** Texts of the live feed channel (new entries, totals, notes, balance alerts) and of `/fleet feed`. */
import { defineMessages } from '../define.js';

export const feed = defineMessages({
  en: {
    'feed.help.usage': '/fleet feed',
    'feed.help.description': 'Where the live transaction feed posts, its last check, and how far behind it is.',
    'feed.newTransactions': { one: '{count} new fleet transaction', other: '{count} new fleet transactions' },
    'feed.headline': '*{transactions}*  ·  :large_green_circle: {credits} in  ·  :red_circle: {debits} out',
    'feed.footer': 'Oldest first · `/fleet transactions` for the full list',
    'feed.text': '{transactions}: net {net}',
    'feed.singleText': 'New fleet transaction: {amount} · {type} · {reference}',
    'feed.totals': 'Totals: {lines}',
    'feed.totalsNone': 'Totals: none',
    'feed.totalIn': 'in {amount} ({count})',
    'feed.totalOut': 'out {amount} ({count})',
    'feed.totalNet': 'net {amount}',
    'feed.balanceLow': ':warning: *{currency} balance is low*: {balance}, below the alert threshold of {threshold}.',
    'feed.balanceLowText': 'Low {currency} balance: {balance}',
    'feed.balanceRecovered': ':white_check_mark: *{currency} balance has recovered*: {balance}, back at or above the alert threshold of {threshold}.',
    'feed.balanceRecoveredText': '{currency} balance recovered: {balance}',
    'feed.note.caughtUpWithEntries':
      ':hourglass_flowing_sand: The feed was *{duration} behind* (an outage or a restart) and has caught up: the entries below arrived meanwhile.',
    'feed.note.caughtUpNothing':
      ':hourglass_flowing_sand: The feed was *{duration} behind* (an outage or a restart) and has caught up: no transactions arrived meanwhile.',
    'feed.note.overflow': {
      one: ':fast_forward: *{count} earlier transaction was not posted*: more arrived at once than the feed posts (FEED_MAX_BACKLOG). See `/fleet transactions` for the full list.',
      other:
        ':fast_forward: *{count} earlier transactions were not posted*: more arrived at once than the feed posts (FEED_MAX_BACKLOG). See `/fleet transactions` for the full list.',
    },
    'feed.note.overflowAtLeast': {
      one: ':fast_forward: *at least {count} earlier transactions were not posted*: more arrived at once than the feed posts (FEED_MAX_BACKLOG). See `/fleet transactions` for the full list.',
      other:
        ':fast_forward: *at least {count} earlier transactions were not posted*: more arrived at once than the feed posts (FEED_MAX_BACKLOG). See `/fleet transactions` for the full list.',
    },
    'feed.note.late': {
      one: ':rewind: *{count} transaction late*: dated before entries already posted, it showed up in the list only now.',
      other: ':rewind: *{count} transactions late*: dated before entries already posted, they showed up in the list only now.',
    },
    'feed.note.futureDated': {
      one: ':warning: *{count} transaction dated in the future*, more than {duration} ahead of the database clock: posted now, marked, and not used to judge what is new.',
      other:
        ':warning: *{count} transactions dated in the future*, more than {duration} ahead of the database clock: posted now, marked, and not used to judge what is new.',
    },
    'feedStatus.off': 'The transaction feed is off. An admin turns it on by setting FEED_CHANNEL_ID to a channel the app is in.',
    'feedStatus.headline': '*Transaction feed* posts new fleet transactions to {channel}, checking about every {seconds} s.',
    'feedStatus.health': '*Health:* {health}',
    'feedStatus.lastCheck': '*Last successful check:* {when} ({ago} ago)',
    'feedStatus.lastCheckNone': '*Last successful check:* none yet',
    'feedStatus.newest': '*Newest entry posted:* {reference} dated {date}, posted {posted}',
    'feedStatus.newestNone': '*Newest entry posted:* none yet',
    'feedStatus.pending': { one: '*Waiting to be posted:* {count} entry', other: '*Waiting to be posted:* {count} entries' },
    'feedStatus.late': {
      one: '*Posted late:* {count} entry that showed up after newer ones were posted',
      other: '*Posted late:* {count} entries that showed up after newer ones were posted',
    },
    'feedStatus.unreadable': {
      one: "*Unreadable entries:* {count} in the last check did not match the Fleet API's format and was skipped (the logs say which field)",
      other: "*Unreadable entries:* {count} in the last check did not match the Fleet API's format and were skipped (the logs say which field)",
    },
    'feedStatus.future': { one: '*Dated in the future:* {count} entry, posted marked', other: '*Dated in the future:* {count} entries, posted marked' },
    'feedStatus.lastError': '*Last error:* {error} ({date})',
    'feedStatus.lastErrorResolved': '*Last error:* {error} ({date}, resolved since)',
    'feedStatus.starting': ':hourglass: starting: no successful check yet',
    'feedStatus.behind': ':warning: *{duration} behind*',
    'feedStatus.upToDate': ':white_check_mark: up to date',
    'feedStatus.text': 'Transaction feed: {health}',
    'feedStatus.plainStarting': 'starting',
    'feedStatus.plainBehind': '{duration} behind',
    'feedStatus.plainUpToDate': 'up to date',
    'feedStatus.error.slack': 'Slack refused the feed message ({code}).',
    'feedStatus.error.slackUnreachable': 'Could not reach Slack to post the feed message.',
    'feedStatus.error.slackRateLimited': "Slack is limiting the feed's messages.",
    'feedStatus.error.leaseLost': 'Another copy of the app took the feed over.',
    'feedStatus.error.sourceNotReady': 'The transaction history is still loading; the feed waits for its first read.',
    'feedStatus.error.unexpected': 'Something went wrong on our side; the logs have the details.',
  },
  fr: {
    'feed.help.usage': '/fleet flux',
    'feed.help.description': 'Où le flux des transactions publie, sa dernière vérification et son retard éventuel.',
    'feed.newTransactions': { one: '{count} nouvelle transaction de la flotte', other: '{count} nouvelles transactions de la flotte' },
    'feed.headline': '*{transactions}*  ·  :large_green_circle: {credits} en entrée  ·  :red_circle: {debits} en sortie',
    'feed.footer': 'Les plus anciennes d’abord · `/fleet transactions` pour la liste complète',
    'feed.text': '{transactions} : net {net}',
    'feed.singleText': 'Nouvelle transaction de la flotte : {amount} · {type} · {reference}',
    'feed.totals': 'Totaux : {lines}',
    'feed.totalsNone': 'Totaux : aucun',
    'feed.totalIn': 'entrées {amount} ({count})',
    'feed.totalOut': 'sorties {amount} ({count})',
    'feed.totalNet': 'net {amount}',
    'feed.balanceLow': ':warning: *Solde {currency} bas* : {balance}, sous le seuil d’alerte de {threshold}.',
    'feed.balanceLowText': 'Solde {currency} bas : {balance}',
    'feed.balanceRecovered': ':white_check_mark: *Solde {currency} rétabli* : {balance}, de nouveau égal ou supérieur au seuil d’alerte de {threshold}.',
    'feed.balanceRecoveredText': 'Solde {currency} rétabli : {balance}',
    'feed.note.caughtUpWithEntries':
      ':hourglass_flowing_sand: Le flux avait *{duration} de retard* (une panne ou un redémarrage) et l’a rattrapé : les opérations ci-dessous sont arrivées entre-temps.',
    'feed.note.caughtUpNothing':
      ':hourglass_flowing_sand: Le flux avait *{duration} de retard* (une panne ou un redémarrage) et l’a rattrapé : aucune transaction n’est arrivée entre-temps.',
    'feed.note.overflow': {
      one: ':fast_forward: *{count} transaction antérieure n’a pas été publiée* : il en est arrivé d’un coup plus que le flux ne peut en publier (FEED_MAX_BACKLOG). Voyez `/fleet transactions` pour la liste complète.',
      other:
        ':fast_forward: *{count} transactions antérieures n’ont pas été publiées* : il en est arrivé d’un coup plus que le flux ne peut en publier (FEED_MAX_BACKLOG). Voyez `/fleet transactions` pour la liste complète.',
    },
    'feed.note.overflowAtLeast': {
      one: ':fast_forward: *au moins {count} transaction antérieure n’a pas été publiée* : il en est arrivé d’un coup plus que le flux ne peut en publier (FEED_MAX_BACKLOG). Voyez `/fleet transactions` pour la liste complète.',
      other:
        ':fast_forward: *au moins {count} transactions antérieures n’ont pas été publiées* : il en est arrivé d’un coup plus que le flux ne peut en publier (FEED_MAX_BACKLOG). Voyez `/fleet transactions` pour la liste complète.',
    },
    'feed.note.late': {
      one: ':rewind: *{count} transaction en retard* : datée d’avant des opérations déjà publiées, elle n’est apparue dans la liste que maintenant.',
      other: ':rewind: *{count} transactions en retard* : datées d’avant des opérations déjà publiées, elles ne sont apparues dans la liste que maintenant.',
    },
    'feed.note.futureDated': {
      one: ':warning: *{count} transaction datée dans le futur*, de plus de {duration} en avance sur l’horloge de la base de données : publiée maintenant, signalée, et ignorée pour juger de ce qui est nouveau.',
      other:
        ':warning: *{count} transactions datées dans le futur*, de plus de {duration} en avance sur l’horloge de la base de données : publiées maintenant, signalées, et ignorées pour juger de ce qui est nouveau.',
    },
    'feedStatus.off':
      'Le flux des transactions est désactivé. Un administrateur l’active en indiquant dans FEED_CHANNEL_ID un canal où se trouve l’application.',
    'feedStatus.headline':
      '*Le flux des transactions* publie les nouvelles transactions de la flotte dans {channel}, avec une vérification toutes les {seconds} s environ.',
    'feedStatus.health': '*État :* {health}',
    'feedStatus.lastCheck': '*Dernière vérification réussie :* {when} (il y a {ago})',
    'feedStatus.lastCheckNone': '*Dernière vérification réussie :* aucune pour l’instant',
    'feedStatus.newest': '*Dernière opération publiée :* {reference}, date : {date}, publiée : {posted}',
    'feedStatus.newestNone': '*Dernière opération publiée :* aucune pour l’instant',
    'feedStatus.pending': { one: '*En attente de publication :* {count} opération', other: '*En attente de publication :* {count} opérations' },
    'feedStatus.late': {
      one: '*Publiée en retard :* {count} opération apparue après la publication d’opérations plus récentes',
      other: '*Publiées en retard :* {count} opérations apparues après la publication d’opérations plus récentes',
    },
    'feedStatus.unreadable': {
      one: '*Opération illisible :* {count} à la dernière vérification, ignorée car hors du format de l’API Fleet (les journaux indiquent quel champ)',
      other: '*Opérations illisibles :* {count} à la dernière vérification, ignorées car hors du format de l’API Fleet (les journaux indiquent quel champ)',
    },
    'feedStatus.future': {
      one: '*Datée dans le futur :* {count} opération, publiée et signalée',
      other: '*Datées dans le futur :* {count} opérations, publiées et signalées',
    },
    'feedStatus.lastError': '*Dernière erreur :* {error} ({date})',
    'feedStatus.lastErrorResolved': '*Dernière erreur :* {error} ({date}, résolue depuis)',
    'feedStatus.starting': ':hourglass: démarrage : aucune vérification réussie pour l’instant',
    'feedStatus.behind': ':warning: *{duration} de retard*',
    'feedStatus.upToDate': ':white_check_mark: à jour',
    'feedStatus.text': 'Flux des transactions : {health}',
    'feedStatus.plainStarting': 'démarrage',
    'feedStatus.plainBehind': '{duration} de retard',
    'feedStatus.plainUpToDate': 'à jour',
    'feedStatus.error.slack': 'Slack a refusé le message du flux ({code}).',
    'feedStatus.error.slackUnreachable': 'Impossible de joindre Slack pour publier le message du flux.',
    'feedStatus.error.slackRateLimited': 'Slack limite les messages du flux.',
    'feedStatus.error.leaseLost': 'Une autre instance de l’application a repris le flux.',
    'feedStatus.error.sourceNotReady': 'L’historique des transactions est encore en cours de chargement ; le flux attend sa première lecture.',
    'feedStatus.error.unexpected': 'Un problème est survenu de notre côté ; les journaux donnent le détail.',
  },
});
