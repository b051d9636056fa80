/** Texts of `/fleet export`: the replies while the CSV is made and the message that carries the file. */
import { defineMessages } from '../define.js';

export const exportTexts = defineMessages({
  en: {
    'export.help.usage': '/fleet export [filters] [words]',
    'export.help.description':
      'Sends the matching transactions as a CSV file to your direct messages with the app, with the same filters as `/fleet tx`. Without dates: the last full calendar month. Example: `/fleet export currency:USD since:2026-10-01 until:2026-10-31`.',
    'export.usage':
      'Try `/fleet export` for last month, or `/fleet export currency:USD out since:2026-11-01 until:2026-11-15`. Filters: `currency:` `type:` `status:` `in` / `out` `since:` `until:` `min:` `max:`, then words and "quoted phrases".',
    'export.unavailable': "Exports read the ledger, the app's own copy of the transaction history, and it is not turned on here (LEDGER_ENABLED).",
    'export.busy': ':hourglass_flowing_sand: An export of yours is still running. Wait until its file arrives, then try again.',
    'export.tooMany':
      ':no_entry: This search matches {count} transactions, more than the {max} one export may hold. Narrow it down, for example with `since:` and `until:` or `currency:`.',
    'export.empty': 'No transaction matches this search, so there is no file to send.',
    'export.search': '*Search:* {filter}',
    'export.daysIn': 'Days are read in {zone}; the file gives every date in UTC.',
    'export.started': {
      one: ':page_facing_up: Exporting {count} transaction. The file will arrive in your direct messages with the app.',
      other: ':page_facing_up: Exporting {count} transactions. The file will arrive in your direct messages with the app.',
    },
    'export.progress': {
      one: ':page_facing_up: Exporting: {rows} of {count} transaction written…',
      other: ':page_facing_up: Exporting: {rows} of {count} transactions written…',
    },
    'export.sent': {
      one: ':white_check_mark: {count} transaction sent to your direct messages with the app, as {file}.',
      other: ':white_check_mark: {count} transactions sent to your direct messages with the app, as {file}.',
    },
    'export.fileTitle': 'Fleet account transactions',
    'export.fileComment': {
      one: 'Your export: {count} transaction ({filter}). Dates are in UTC; amounts use a dot for decimals, negative for money out.',
      other: 'Your export: {count} transactions ({filter}). Dates are in UTC; amounts use a dot for decimals, negative for money out.',
    },
    'export.uploadFailed': ':warning: The file could not be sent to your direct messages (Slack answered `{code}`). Try again in a moment.',
    'export.failed': ':warning: The export failed on our side. The error is logged as `{incident}`.',
  },
  fr: {
    'export.help.usage': '/fleet export [filtres] [mots]',
    'export.help.description':
      'Envoie les transactions correspondantes dans un fichier CSV, dans vos messages directs avec l’application, avec les mêmes filtres que `/fleet tx`. Sans dates : le dernier mois civil complet. Exemple : `/fleet exporter devise:USD depuis:2026-10-01 jusqu’au:2026-10-31`.',
    'export.usage':
      'Essayez `/fleet exporter` pour le mois dernier, ou `/fleet exporter devise:USD sortant depuis:2026-11-01 jusqu’au:2026-11-15`. Filtres : `devise:` `type:` `statut:` `entrant` / `sortant` `depuis:` `jusqu’au:` `min:` `max:`, puis des mots et des « expressions entre guillemets ».',
    'export.unavailable':
      'L’export lit le registre, la copie de l’historique des transactions que conserve l’application, et il n’est pas activé ici (LEDGER_ENABLED).',
    'export.busy': ':hourglass_flowing_sand: Un export à votre nom est déjà en cours. Attendez que son fichier arrive, puis réessayez.',
    'export.tooMany':
      ':no_entry: Cette recherche donne {count} transactions, au-delà des {max} qu’un export peut contenir. Affinez-la, par exemple avec `depuis:` et `jusqu’au:` ou `devise:`.',
    'export.empty': 'Aucune transaction ne correspond à cette recherche : il n’y a pas de fichier à envoyer.',
    'export.search': '*Recherche :* {filter}',
    'export.daysIn': 'Les jours sont lus dans le fuseau {zone} ; le fichier donne toutes les dates en UTC.',
    'export.started': {
      one: ':page_facing_up: Export de {count} transaction en cours. Le fichier arrivera dans vos messages directs avec l’application.',
      other: ':page_facing_up: Export de {count} transactions en cours. Le fichier arrivera dans vos messages directs avec l’application.',
    },
    'export.progress': {
      one: ':page_facing_up: Export en cours : {rows} transaction écrite sur {count}…',
      other: ':page_facing_up: Export en cours : {rows} transactions écrites sur {count}…',
    },
    'export.sent': {
      one: ':white_check_mark: {count} transaction envoyée dans vos messages directs avec l’application, dans le fichier {file}.',
      other: ':white_check_mark: {count} transactions envoyées dans vos messages directs avec l’application, dans le fichier {file}.',
    },
    'export.fileTitle': 'Transactions du compte de flotte',
    'export.fileComment': {
      one: 'Votre export : {count} transaction ({filter}). Les dates sont en UTC ; les montants ont un point décimal, négatifs pour les sorties.',
      other: 'Votre export : {count} transactions ({filter}). Les dates sont en UTC ; les montants ont un point décimal, négatifs pour les sorties.',
    },
    'export.uploadFailed': ':warning: Le fichier n’a pas pu être envoyé dans vos messages directs (Slack a répondu `{code}`). Réessayez dans un instant.',
    'export.failed': ':warning: L’export a échoué de notre côté. L’erreur est enregistrée sous la référence `{incident}`.',
  },
});
