import { describe, expect, it } from 'vitest';
import { FleetBadResponseError, FleetRejectedError, FleetUnavailableError } from '../../../src/fleet/errors.js';
import { createLogger } from '../../../src/core/logger.js';
import { catalogTable } from '../../../src/i18n/index.js';
import { failureText, type FailureAction } from '../../../src/slack/refusals/failures.js';

const logger = createLogger({ level: 'silent' });

describe('failureText', () => {
  it("writes a Fleet API error in the reader's language from its code", () => {
    const error = new FleetUnavailableError(503, false);
    expect(failureText('en', error, 'readBalance', logger)).toBe(
      ':warning: Could not read the balance. The Fleet API is unavailable right now. Try again in a few minutes.',
    );
    expect(failureText('fr', error, 'readBalance', logger)).toBe(
      ':warning: Impossible de lire le solde. L’API Fleet est indisponible pour le moment. Réessayez dans quelques minutes.',
    );
  });

  it('quotes a rejection escaped, in French too, and names what could not be read', () => {
    const rejected = failureText('fr', new FleetRejectedError(400, 'Refusé <!here> & co'), 'shareBalance', logger);
    expect(rejected).toBe(':warning: Impossible de partager le solde. L’API Fleet a refusé la demande : Refusé &lt;!here&gt; &amp; co');
    expect(failureText('fr', new FleetRejectedError(409, undefined), 'readTransactions', logger)).toContain('L’API Fleet a refusé la demande (HTTP 409).');
    expect(failureText('fr', new FleetBadResponseError('not JSON', 200, false), 'readFeedStatus', logger)).toBe(
      ':warning: Impossible de lire l’état du flux. L’API Fleet a envoyé une réponse que nous n’avons pas pu lire (not JSON).',
    );
  });

  it('says when the Fleet API took too long, and gives an incident id for anything unexpected', () => {
    const timeout = Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
    expect(failureText('fr', timeout, 'readBalance', logger)).toBe(':warning: Impossible de lire le solde. L’API Fleet a mis trop de temps à répondre.');
    const unexpected = failureText('fr', new Error('boom'), 'answerCommand', logger);
    expect(unexpected).toMatch(
      /^:warning: Impossible de répondre à cette commande : un problème est survenu de notre côté\. L’erreur est enregistrée sous la référence `[0-9a-f]{8}`\.$/,
    );
    expect(unexpected).not.toContain('boom');
  });

  it('elides French "de" before a verb that starts with a vowel, for every action in the catalog', () => {
    const error = new FleetUnavailableError(503, false);
    expect(failureText('fr', error, 'openFilter', logger)).toMatch(/^:warning: Impossible d’ouvrir le filtre\. /);
    expect(failureText('fr', error, 'saveLanguage', logger)).toMatch(/^:warning: Impossible d’enregistrer votre langue\. /);
    expect(failureText('fr', error, 'rejectMatch', logger)).toMatch(/^:warning: Impossible d’écarter la transaction\. /);
    const actions = [...catalogTable('fr').keys()].filter((key) => key.startsWith('failure.action.')).map((key) => key.slice('failure.action.'.length));
    expect(actions.length).toBeGreaterThan(10);
    for (const action of actions) {
      expect(failureText('fr', error, action as FailureAction, logger)).not.toMatch(/Impossible de [aàâeéèêëiîïoôuùûh]/i);
    }
  });
});
