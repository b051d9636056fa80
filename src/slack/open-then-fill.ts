/**
 * Opens a modal within a click's 3-second `trigger_id` however slow the lookups before it are (the
 * reader's language, the request, the policy): given a moment, the finished modal opens at once, or
 * the refusal goes back to the caller to be told as before; past that moment a loading view opens
 * first, and `views.update` fills it (with the modal, or the refusal as a notice) once the lookups end.
 * Lookups that fail before anything opened throw to the caller, who tells the person; after the
 * loading view opened, their failure replaces it, so that no modal is left loading.
 */
import type { ModalView, View } from '@slack/types';
import type { WebClient } from '@slack/web-api';

/** What the lookups decided: the modal to show, or a refusal to tell the person. */
export type ModalOrRefusal = { view: View } | { refusal: string };

/**
 * How long the lookups may take before the loading view opens instead: with Slack's round trips
 * (100–400 ms, more at p99) on the way in and for `views.open`, this leaves the trigger's 3 s room.
 */
export const QUICK_LOOKUP_MS = 700;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Resolves with the refusal when it came in time and nothing was opened (the caller tells it), else undefined. */
export async function openThenFill(
  client: WebClient,
  triggerId: string,
  lookups: Promise<ModalOrRefusal>,
  views: { loading: () => ModalView; refusal: (text: string) => ModalView; failure: (error: unknown) => ModalView },
  quickMs: number = QUICK_LOOKUP_MS,
): Promise<{ refusal: string } | undefined> {
  const early = await Promise.race([lookups, sleep(quickMs).then(() => undefined)]);
  if (early && 'refusal' in early) return early;
  if (early) {
    await client.views.open({ trigger_id: triggerId, view: early.view });
    return undefined;
  }
  const opened = await client.views.open({ trigger_id: triggerId, view: views.loading() });
  const view = await lookups.then(
    (result) => ('view' in result ? result.view : views.refusal(result.refusal)),
    (error: unknown) => views.failure(error),
  );
  if (opened.view?.id) await client.views.update({ view_id: opened.view.id, ...(opened.view.hash ? { hash: opened.view.hash } : {}), view });
  return undefined;
}
