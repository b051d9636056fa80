/** Texts shared by every surface: the sandbox mark, generic words. */
import { defineMessages } from '../define.js';

export const common = defineMessages({
  en: {
    'common.sandboxLabel': ':test_tube: *SANDBOX* — demo data, no real money',
    'common.sandboxSuffix': '{title} (SANDBOX)',
    'common.close': 'Close',
    'common.loading': ':hourglass_flowing_sand: Loading…',
    // A time on the team's clock with its zone (src/slack/views/dates.ts).
    'common.teamTime': '{clock} ({zone})',
    'common.fileCheckBusy': 'Your previous file is still being checked: wait for its result, then send this one again.',
  },
  fr: {
    'common.sandboxLabel': ':test_tube: *SANDBOX* — données de démonstration, aucun argent réel',
    'common.sandboxSuffix': '{title} (SANDBOX)',
    'common.close': 'Fermer',
    'common.loading': ':hourglass_flowing_sand: Chargement…',
    'common.teamTime': '{clock} ({zone})',
    'common.fileCheckBusy': 'Votre fichier précédent est encore en cours de vérification : attendez son résultat, puis envoyez celui-ci à nouveau.',
  },
});
