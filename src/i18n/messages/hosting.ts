/** Texts of hosted mode: binding a workspace to its Fleet account (`/fleet connect`) and its settings (`/fleet settings`). */
import { defineMessages } from '../define.js';

export const hostingTexts = defineMessages({
  en: {
    'hosting.notConnected':
      'This workspace is not connected to a Fleet account yet. A workspace admin (or whoever installed the app) runs `/fleet connect` and pastes the Fleet API key the platform gave your business.',
    'hosting.adminsOnly': 'Only a workspace admin, or whoever installed the app, may run `/fleet {subcommand}`.',
    'hosting.connect.title': 'Connect Fleet',
    'hosting.connect.submit': 'Connect',
    'hosting.connect.cancel': 'Cancel',
    'hosting.connect.intro':
      'Paste the Fleet API key of your business. I check it with one balance read, then keep it encrypted; nobody sees it again, in Slack or in the logs. Running `/fleet connect` again replaces it.',
    'hosting.connect.replacing': 'This workspace is connected already: a key saved here replaces the one in use.',
    'hosting.connect.label': 'Fleet API key',
    'hosting.connect.refused': 'The Fleet API refused this key. Check it and paste it again.',
    'hosting.connect.unreachable': 'The Fleet API did not answer in time, so the key was not saved. Try again in a minute.',
    'hosting.connect.empty': 'Paste the key.',
    'hosting.connected':
      ':white_check_mark: This workspace is connected to its Fleet account. `/fleet help` lists what you can do; `/fleet settings` sets who may do it.',
    'hosting.settings.title': 'Workspace settings',
    'hosting.settings.submit': 'Save',
    'hosting.settings.intro':
      'Each field is one setting of docs/configuration.md, for this workspace only. An empty field takes the default. A change applies within a minute, without a restart.',
    'hosting.settings.saved': ':white_check_mark: The workspace settings are saved; they apply within a minute.',
    'hosting.failed': 'Something went wrong; nothing was changed. Try again in a minute.',
  },
  fr: {
    'hosting.notConnected':
      'Cet espace de travail n’est pas encore relié à un compte Fleet. Un administrateur de l’espace (ou la personne qui a installé l’application) lance `/fleet connect` et colle la clé d’API Fleet que la plateforme a donnée à votre entreprise.',
    'hosting.adminsOnly': 'Seul un administrateur de l’espace de travail, ou la personne qui a installé l’application, peut lancer `/fleet {subcommand}`.',
    'hosting.connect.title': 'Relier Fleet',
    'hosting.connect.submit': 'Relier',
    'hosting.connect.cancel': 'Annuler',
    'hosting.connect.intro':
      'Collez la clé d’API Fleet de votre entreprise. Je la vérifie par une lecture du solde, puis je la garde chiffrée ; personne ne la revoit, ni dans Slack ni dans les journaux. Relancer `/fleet connect` la remplace.',
    'hosting.connect.replacing': 'Cet espace est déjà relié : une clé enregistrée ici remplace celle en service.',
    'hosting.connect.label': 'Clé d’API Fleet',
    'hosting.connect.refused': 'L’API Fleet a refusé cette clé. Vérifiez-la et collez-la de nouveau.',
    'hosting.connect.unreachable': 'L’API Fleet n’a pas répondu à temps ; la clé n’est pas enregistrée. Réessayez dans une minute.',
    'hosting.connect.empty': 'Collez la clé.',
    'hosting.connected':
      ':white_check_mark: Cet espace de travail est relié à son compte Fleet. `/fleet aide` liste ce que vous pouvez faire ; `/fleet settings` règle qui peut le faire.',
    'hosting.settings.title': 'Réglages de l’espace',
    'hosting.settings.submit': 'Enregistrer',
    'hosting.settings.intro':
      'Chaque champ est un réglage de docs/configuration.md, pour cet espace de travail seulement. Un champ vide prend la valeur par défaut. Un changement s’applique en moins d’une minute, sans redémarrage.',
    'hosting.settings.saved': ':white_check_mark: Les réglages de l’espace sont enregistrés ; ils s’appliquent en moins d’une minute.',
    'hosting.failed': 'Un problème est survenu ; rien n’a été changé. Réessayez dans une minute.',
  },
});
