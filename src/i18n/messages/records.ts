/** Texts of `/fleet reconcile`: the form, the file's problems, the result and its file, and the history of runs. */
import { defineMessages } from '../define.js';

export const recordsTexts = defineMessages({
  en: {
    'records.help.usage': '/fleet reconcile',
    'records.help.description':
      "Checks your own records (a CSV file: reference, date, amount, currency, optional direction and note) against the fleet account's ledger, and sends you the exceptions.",
    'records.history.help.usage': '/fleet reconcile history',
    'records.history.help.description': "Lists the last records checks, and sends a run's exceptions file again.",
    'records.unavailable': "The records check reads the ledger, the app's own copy of the transaction history, and it is not turned on here (LEDGER_ENABLED).",
    'records.title': 'Check records',
    'records.intro':
      'Choose a CSV file of your records, with a header row: `reference`, `date`, `amount`, `currency`, and optionally `direction` (`in` / `out`) and `note` (French names work too). Amounts as in `/fleet export`: a dot for decimals, negative for money out of the fleet account. Dates as `2026-11-02` or `2026-11-02 14:30`, read in {zone}. At most {rows} rows and {size} MiB.',
    'records.matchRule': {
      one: 'Records match by reference first (the Fleet reference, or the reference the app sent with a payout), then by amount, currency and direction within {count} day of their date. Records sharing a reference (a transfer, its fee and its VAT) match entries of their own amounts one by one, or together one entry of their sum.',
      other:
        'Records match by reference first (the Fleet reference, or the reference the app sent with a payout), then by amount, currency and direction within {count} days of their date. Records sharing a reference (a transfer, its fee and its VAT) match entries of their own amounts one by one, or together one entry of their sum.',
    },
    'records.matchRuleSameDay':
      'Records match by reference first (the Fleet reference, or the reference the app sent with a payout), then by amount, currency and direction on their own date. Records sharing a reference (a transfer, its fee and its VAT) match entries of their own amounts one by one, or together one entry of their sum.',
    'records.fileLabel': 'Records file (CSV)',
    'records.submit': 'Check',
    'records.close': 'Close',
    'records.nothingChosen': 'Choose a CSV file of your records.',
    'records.checking': ':hourglass_flowing_sand: Reading your records and matching them against the ledger…',
    'records.problem.file_too_large': ':no_entry: The file is larger than {size} MiB, the most the records check reads (RECORDS_MAX_BYTES). Nothing was kept.',
    'records.problem.not_csv':
      ':no_entry: {name} is not a file the records check reads. Choose a CSV, TSV or TXT text file, or an Excel workbook (.xlsx). Nothing was kept.',
    'records.problem.not_on_slack': ':no_entry: {name} is not stored on Slack, so the app does not download it. Upload the file itself. Nothing was kept.',
    'records.problem.unavailable': ':warning: Slack did not give the file (it answered `{code}`). Try again in a moment. Nothing was kept.',
    'records.problem.file_empty': ':no_entry: The file is empty. Nothing was kept.',
    'records.problem.file_binary': ':no_entry: The file is not text: save your records as CSV in UTF-8. Nothing was kept.',
    'records.problem.file_unreadable': ':no_entry: The file cannot be read as CSV near line {line} (a quote never closed?). Nothing was kept.',
    'records.problem.file_delimiter': ":no_entry: The file's columns are separated by {found}: save it with commas. Nothing was kept.",
    'records.problem.semicolon': 'semicolons',
    'records.problem.tab': 'tabs',
    'records.problem.file_missing_columns':
      ':no_entry: The header row (row 1) has no {columns} column. Needed: `reference`, `date`, `amount`, `currency` (or `référence`, `date`, `montant`, `devise`). Nothing was kept.',
    'records.problem.file_repeated_column': ':no_entry: The header row (row 1) names the column {column} twice. Nothing was kept.',
    'records.problem.file_no_rows': ':no_entry: The file has a header row but no records. Nothing was kept.',
    'records.problem.file_too_many_rows':
      ':no_entry: The file has more than {max} rows, the most one check reads (RECORDS_MAX_ROWS). Split it, for example by month. Nothing was kept.',
    'records.problem.rows': {
      one: ':no_entry: {count} problem in your records; nothing was kept. Fix it and choose the file again:',
      other: ':no_entry: {count} problems in your records; nothing was kept. Fix them and choose the file again:',
    },
    'records.problem.more': { one: '…and {count} more.', other: '…and {count} more.' },
    'records.row.where': 'Row {row}, column {column}',
    'records.row.whereRow': 'Row {row}',
    'records.row.column_count': 'it does not have as many cells as the header row.',
    'records.row.date_invalid': 'not a date: write `2026-11-02` or `2026-11-02 14:30`.',
    'records.row.amount_invalid': 'not an amount: digits with a dot for decimals, and a minus for money out (`-1250.50`).',
    'records.row.currency_unknown': 'a currency the fleet account does not know.',
    'records.row.direction_invalid': 'the direction is `in` or `out` (`entrée` or `sortie`), or empty.',
    'records.row.direction_sign': 'a negative amount says money out, but the direction says `in`.',
    'records.result.title': 'Records checked',
    'records.result.headline': {
      one: '*{file}*: {count} record from {from} to {to} (days in {zone}).',
      other: '*{file}*: {count} records from {from} to {to} (days in {zone}).',
    },
    'records.result.matched': { one: ':white_check_mark: {count} matched', other: ':white_check_mark: {count} matched' },
    'records.result.total': { one: '• {currency}: {count} record, {total}', other: '• {currency}: {count} records, {total}' },
    'records.result.bySum': {
      one: ':link: {count} group of records sharing a reference matched one ledger entry by their sum ({records} records in all):',
      other: ':link: {count} groups of records sharing a reference each matched one ledger entry by their sum ({records} records in all):',
    },
    'records.result.bySumGroup': {
      one: '• {count} record sharing reference {reference} matched one ledger entry by their sum, {total}',
      other: '• {count} records sharing reference {reference} matched one ledger entry by their sum, {total}',
    },
    'records.result.bySumMore': { one: '…and {count} more group.', other: '…and {count} more groups.' },
    'records.result.differences': {
      one: ':warning: {count} found in the ledger with another amount',
      other: ':warning: {count} found in the ledger with another amount',
    },
    'records.result.notInLedger': { one: ':x: {count} record not in the ledger', other: ':x: {count} records not in the ledger' },
    'records.result.notFoundYet': {
      one: ':hourglass_flowing_sand: {count} record not found in the ledger, which may not hold it yet',
      other: ':hourglass_flowing_sand: {count} records not found in the ledger, which may not hold them yet',
    },
    'records.result.notInRecords': {
      one: ':grey_question: {count} ledger entry not in your records',
      other: ':grey_question: {count} ledger entries not in your records',
    },
    'records.gap.behind':
      ':warning: The ledger has not read the Fleet API since {time}, so it may lack entries of these days: nothing is called missing, on either side. Try again once `/fleet ledger` says it is up to date.',
    'records.gap.not_polled': ':warning: The ledger has not read the Fleet API yet, so nothing is called missing, on either side. Try again in a moment.',
    'records.gap.history':
      ':warning: The ledger is still loading the history and does not reach back to {from} yet: nothing is called missing, on either side. Try again once `/fleet ledger` says the history is complete.',
    'records.result.fileSent': 'The exceptions are in {file}, in your direct messages with the app.',
    'records.result.fileBelow': 'The exceptions are in {file}, just below.',
    'records.result.noExceptions': 'No exceptions: your records and the ledger agree.',
    'records.result.fileFailed': ':warning: The exceptions file could not be sent (Slack answered `{code}`). `/fleet reconcile history` sends it again.',
    'records.result.run': 'Run {id}. `/fleet reconcile history` lists the last runs.',
    'records.fileTitle': 'Records check exceptions',
    'records.failed': ':warning: The records check failed on our side. The error is logged as `{incident}`. Nothing was kept.',
    'records.history.title': 'Records checks',
    'records.history.empty': 'No records check has run yet. `/fleet reconcile` starts one.',
    'records.history.line':
      '*{id}* {when}, {user}: {file}, {from} to {to}. {matched} matched, {differences} other amount, {notInLedger} not in the ledger, {notInRecords} not in the records.',
    'records.history.lineIncomplete':
      '*{id}* {when}, {user}: {file}, {from} to {to}. {matched} matched, {differences} other amount, {notFound} not found while the ledger was incomplete (nothing called missing).',
    'records.history.fileButton': 'Exceptions file',
    'records.history.sent': ':white_check_mark: The exceptions file of {id} is in your direct messages with the app, as {file}.',
    'records.history.sentAbove': ':white_check_mark: The exceptions file of {id} is just above, as {file}.',
    'records.history.noExceptions': 'Run {id} had no exceptions, so there is no file to send.',
    'records.history.unknown': 'There is no records check {id}. `/fleet reconcile history` lists the last runs.',
  },
  fr: {
    'records.help.usage': '/fleet rapprochement',
    'records.help.description':
      'Rapproche vos propres écritures (un fichier CSV : référence, date, montant, devise, sens et note facultatifs) du grand livre du compte de flotte, et vous envoie les écarts.',
    'records.history.help.usage': '/fleet rapprochement historique',
    'records.history.help.description': 'Liste les derniers rapprochements, et renvoie le fichier des écarts de l’un d’eux.',
    'records.unavailable':
      'Le rapprochement lit le grand livre, la copie de l’historique des transactions tenue par l’application, qui n’est pas activé ici (LEDGER_ENABLED).',
    'records.title': 'Rapprochement',
    'records.intro':
      'Choisissez un fichier CSV de vos écritures, avec une ligne d’en-tête : `référence`, `date`, `montant`, `devise`, et au choix `sens` (`entrée` / `sortie`) et `note` (les noms anglais marchent aussi). Les montants comme dans `/fleet export` : un point pour les décimales, négatifs pour l’argent qui sort du compte de flotte. Les dates comme `2026-11-02` ou `2026-11-02 14:30`, lues dans le fuseau {zone}. Au plus {rows} lignes et {size} Mio.',
    'records.matchRule': {
      one: 'Une écriture est rapprochée d’abord par sa référence (celle de Fleet, ou celle que l’application a envoyée avec un virement), puis par montant, devise et sens à {count} jour près de sa date. Des écritures de même référence (un virement, ses frais et leur TVA) sont rapprochées une à une d’opérations de même montant, ou ensemble d’une seule opération de leur somme.',
      other:
        'Une écriture est rapprochée d’abord par sa référence (celle de Fleet, ou celle que l’application a envoyée avec un virement), puis par montant, devise et sens à {count} jours près de sa date. Des écritures de même référence (un virement, ses frais et leur TVA) sont rapprochées une à une d’opérations de même montant, ou ensemble d’une seule opération de leur somme.',
    },
    'records.matchRuleSameDay':
      'Une écriture est rapprochée d’abord par sa référence (celle de Fleet, ou celle que l’application a envoyée avec un virement), puis par montant, devise et sens à sa date même. Des écritures de même référence (un virement, ses frais et leur TVA) sont rapprochées une à une d’opérations de même montant, ou ensemble d’une seule opération de leur somme.',
    'records.fileLabel': 'Fichier des écritures (CSV)',
    'records.submit': 'Rapprocher',
    'records.close': 'Fermer',
    'records.nothingChosen': 'Choisissez un fichier CSV de vos écritures.',
    'records.checking': ':hourglass_flowing_sand: Lecture de vos écritures et rapprochement avec le grand livre…',
    'records.problem.file_too_large': ':no_entry: Le fichier dépasse {size} Mio, le plus que lit le rapprochement (RECORDS_MAX_BYTES). Rien n’a été gardé.',
    'records.problem.not_csv':
      ':no_entry: {name} n’est pas un fichier que lit le rapprochement. Choisissez un fichier texte CSV, TSV ou TXT, ou un classeur Excel (.xlsx). Rien n’a été gardé.',
    'records.problem.not_on_slack':
      ':no_entry: {name} n’est pas stocké sur Slack : l’application ne le télécharge pas. Déposez le fichier lui-même. Rien n’a été gardé.',
    'records.problem.unavailable': ':warning: Slack n’a pas donné le fichier (réponse `{code}`). Réessayez dans un instant. Rien n’a été gardé.',
    'records.problem.file_empty': ':no_entry: Le fichier est vide. Rien n’a été gardé.',
    'records.problem.file_binary': ':no_entry: Le fichier n’est pas du texte : enregistrez vos écritures en CSV UTF-8. Rien n’a été gardé.',
    'records.problem.file_unreadable':
      ':no_entry: Le fichier ne se lit pas comme un CSV vers la ligne {line} (un guillemet jamais fermé ?). Rien n’a été gardé.',
    'records.problem.file_delimiter':
      ':no_entry: Les colonnes du fichier sont séparées par des {found} : enregistrez-le avec des virgules. Rien n’a été gardé.',
    'records.problem.semicolon': 'points-virgules',
    'records.problem.tab': 'tabulations',
    'records.problem.file_missing_columns':
      ':no_entry: La ligne d’en-tête (ligne 1) n’a pas de colonne {columns}. Il faut `référence`, `date`, `montant`, `devise` (ou `reference`, `date`, `amount`, `currency`). Rien n’a été gardé.',
    'records.problem.file_repeated_column': ':no_entry: La ligne d’en-tête (ligne 1) nomme deux fois la colonne {column}. Rien n’a été gardé.',
    'records.problem.file_no_rows': ':no_entry: Le fichier a une ligne d’en-tête mais aucune écriture. Rien n’a été gardé.',
    'records.problem.file_too_many_rows':
      ':no_entry: Le fichier a plus de {max} lignes, le plus que lit un rapprochement (RECORDS_MAX_ROWS). Découpez-le, par mois par exemple. Rien n’a été gardé.',
    'records.problem.rows': {
      one: ':no_entry: {count} problème dans vos écritures ; rien n’a été gardé. Corrigez-le et choisissez de nouveau le fichier :',
      other: ':no_entry: {count} problèmes dans vos écritures ; rien n’a été gardé. Corrigez-les et choisissez de nouveau le fichier :',
    },
    'records.problem.more': { one: '…et {count} autre.', other: '…et {count} autres.' },
    'records.row.where': 'Ligne {row}, colonne {column}',
    'records.row.whereRow': 'Ligne {row}',
    'records.row.column_count': 'elle n’a pas autant de cellules que la ligne d’en-tête.',
    'records.row.date_invalid': 'ce n’est pas une date : écrivez `2026-11-02` ou `2026-11-02 14:30`.',
    'records.row.amount_invalid': 'ce n’est pas un montant : des chiffres avec un point pour les décimales, et un moins pour l’argent qui sort (`-1250.50`).',
    'records.row.currency_unknown': 'une devise que le compte de flotte ne connaît pas.',
    'records.row.direction_invalid': 'le sens est `entrée` ou `sortie` (`in` ou `out`), ou vide.',
    'records.row.direction_sign': 'un montant négatif dit que l’argent sort, mais le sens dit `entrée`.',
    'records.result.title': 'Rapprochement fait',
    'records.result.headline': {
      one: '*{file}* : {count} écriture du {from} au {to} (jours du fuseau {zone}).',
      other: '*{file}* : {count} écritures du {from} au {to} (jours du fuseau {zone}).',
    },
    'records.result.matched': { one: ':white_check_mark: {count} rapprochée', other: ':white_check_mark: {count} rapprochées' },
    'records.result.total': { one: '• {currency} : {count} écriture, {total}', other: '• {currency} : {count} écritures, {total}' },
    'records.result.bySum': {
      one: ':link: {count} groupe d’écritures de même référence rapproché d’une seule opération du grand livre par leur somme ({records} écritures en tout) :',
      other:
        ':link: {count} groupes d’écritures de même référence rapprochés chacun d’une seule opération du grand livre par leur somme ({records} écritures en tout) :',
    },
    'records.result.bySumGroup': {
      one: '• {count} écriture de référence {reference} rapprochée d’une seule opération du grand livre par leur somme, {total}',
      other: '• {count} écritures de même référence {reference} rapprochées d’une seule opération du grand livre par leur somme, {total}',
    },
    'records.result.bySumMore': { one: '…et {count} autre groupe.', other: '…et {count} autres groupes.' },
    'records.result.differences': {
      one: ':warning: {count} trouvée au grand livre avec un autre montant',
      other: ':warning: {count} trouvées au grand livre avec un autre montant',
    },
    'records.result.notInLedger': { one: ':x: {count} écriture absente du grand livre', other: ':x: {count} écritures absentes du grand livre' },
    'records.result.notFoundYet': {
      one: ':hourglass_flowing_sand: {count} écriture non trouvée au grand livre, qui ne l’a peut-être pas encore',
      other: ':hourglass_flowing_sand: {count} écritures non trouvées au grand livre, qui ne les a peut-être pas encore',
    },
    'records.result.notInRecords': {
      one: ':grey_question: {count} opération du grand livre absente de vos écritures',
      other: ':grey_question: {count} opérations du grand livre absentes de vos écritures',
    },
    'records.gap.behind':
      ':warning: Le grand livre n’a pas lu l’API Fleet depuis {time} : il peut lui manquer des opérations de ces jours : rien n’est dit absent, d’un côté comme de l’autre. Réessayez quand `/fleet ledger` le dit à jour.',
    'records.gap.not_polled':
      ':warning: Le grand livre n’a pas encore lu l’API Fleet : rien n’est dit absent, d’un côté comme de l’autre. Réessayez dans un instant.',
    'records.gap.history':
      ':warning: Le grand livre charge encore l’historique et ne remonte pas jusqu’au {from} : rien n’est dit absent, d’un côté comme de l’autre. Réessayez quand `/fleet ledger` dit l’historique complet.',
    'records.result.fileSent': 'Les écarts sont dans {file}, dans vos messages directs avec l’application.',
    'records.result.fileBelow': 'Les écarts sont dans {file}, juste ci-dessous.',
    'records.result.noExceptions': 'Aucun écart : vos écritures et le grand livre concordent.',
    'records.result.fileFailed':
      ':warning: Le fichier des écarts n’a pas pu être envoyé (Slack a répondu `{code}`). `/fleet rapprochement historique` le renvoie.',
    'records.result.run': 'Rapprochement {id}. `/fleet rapprochement historique` liste les derniers.',
    'records.fileTitle': 'Écarts du rapprochement',
    'records.failed': ':warning: Le rapprochement a échoué de notre côté. L’erreur est journalisée sous `{incident}`. Rien n’a été gardé.',
    'records.history.title': 'Rapprochements',
    'records.history.empty': 'Aucun rapprochement n’a encore été fait. `/fleet rapprochement` en lance un.',
    'records.history.line':
      '*{id}* {when}, {user} : {file}, du {from} au {to}. {matched} rapprochées, {differences} autre montant, {notInLedger} absentes du grand livre, {notInRecords} absentes des écritures.',
    'records.history.lineIncomplete':
      '*{id}* {when}, {user} : {file}, du {from} au {to}. {matched} rapprochées, {differences} autre montant, {notFound} non trouvées alors que le grand livre était incomplet (rien n’est dit absent).',
    'records.history.fileButton': 'Fichier des écarts',
    'records.history.sent': ':white_check_mark: Le fichier des écarts de {id} est dans vos messages directs avec l’application, sous le nom {file}.',
    'records.history.sentAbove': ':white_check_mark: Le fichier des écarts de {id} est juste au-dessus, sous le nom {file}.',
    'records.history.noExceptions': 'Le rapprochement {id} n’avait aucun écart : il n’y a pas de fichier à envoyer.',
    'records.history.unknown': 'Il n’y a pas de rapprochement {id}. `/fleet rapprochement historique` liste les derniers.',
  },
});
