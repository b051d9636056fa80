/** Texts shared by every surface: the sandbox mark, generic words. */
import { defineMessages } from '../define.js';

export const common = defineMessages({
  en: {
    'common.sandboxLabel': ':test_tube: *SANDBOX* — demo data, no real money',
    'common.sandboxSuffix': '{title} (SANDBOX)',
    'common.close': 'Close',
  },
  fr: {
    'common.sandboxLabel': ':test_tube: *SANDBOX* — données de démonstration, aucun argent réel',
    'common.sandboxSuffix': '{title} (SANDBOX)',
    'common.close': 'Fermer',
  },
});
