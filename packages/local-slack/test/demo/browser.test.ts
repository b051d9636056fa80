/**
 * Plays the product in Debian's Chromium, by clicking and typing on the demo page as its people would:
 * the balance, transactions with Next, a mobile money payout requested by Rita and approved by Abel,
 * then the payout in the feed channel, the runway with its chart shown in Abel's direct messages, an export
 * Abel downloads from his direct messages, the demo's example records file reconciled for him, an
 * import profile he makes for each example export, a possible duplicate, a scheduled payout and
 * the Workflow Builder step.
 * The steps run in order and share one demo; each saves a screenshot under test-output/demo/ (ignored
 * by git). The four flows docs/demo.md walks through (a scheduled payout, a duplicate, a reconcile,
 * the Workflow step) and the import profile docs/using.md shows also name the screenshots the page
 * shows: with DEMO_DOCS_SCREENSHOTS=1 they are written to docs/demo/ as well, so that a plain test run
 * leaves the tree as it was.
 * Each group of steps is a module of `browser/`; `browser/session.ts` holds the page and its helpers.
 */
import { describe } from 'vitest';
import { accessSteps } from './browser/access.js';
import { bulkSteps } from './browser/bulk.js';
import { duplicateSteps } from './browser/duplicate.js';
import { firstPayoutSteps } from './browser/first-payout.js';
import { importProfileSteps } from './browser/import-profile.js';
import { frenchSteps } from './browser/french.js';
import { limitSteps } from './browser/limits.js';
import { pageBehaviourSteps } from './browser/page-behaviour.js';
import { readingSteps } from './browser/reading.js';
import { reconcileSteps } from './browser/reconcile.js';
import { runwayAndExportSteps } from './browser/runway-export.js';
import { savedRecipientAndHomeSteps } from './browser/saved-recipient-and-home.js';
import { scheduledPayoutSteps } from './browser/scheduled-payout.js';
import { browserSession } from './browser/session.js';
import { workflowStepSteps } from './browser/workflow-step.js';

describe('the demo page in a real browser', () => {
  const session = browserSession();
  // In this order: later steps count on what earlier ones left (a paid recipient, the ledger's history).
  readingSteps(session);
  firstPayoutSteps(session);
  accessSteps(session);
  runwayAndExportSteps(session);
  reconcileSteps(session);
  importProfileSteps(session);
  pageBehaviourSteps(session);
  frenchSteps(session);
  savedRecipientAndHomeSteps(session);
  duplicateSteps(session);
  bulkSteps(session);
  scheduledPayoutSteps(session);
  workflowStepSteps(session);
  // Last: it makes the bot send what real Slack would refuse.
  limitSteps(session);
});
