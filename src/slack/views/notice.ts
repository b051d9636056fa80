/**
 * The notice: a reply or a modal that says one thing (a refusal, progress, an outcome, a failure).
 * Every notice of the app is built here, from the same blocks: its mrkdwn in one section, cut to a
 * section's 3,000 characters, then the SANDBOX footer.
 */
import type { KnownBlock, ModalView } from '@slack/types';
import { textsFor } from '../../i18n/index.js';
import { cutMrkdwn, plainText, sandboxFooter, type Surface } from './text.js';

/** A message: its fallback text and its blocks. */
export interface Reply {
  text: string;
  blocks: KnownBlock[];
}

/** `text` is mrkdwn the app composed (quoted text already escaped). */
function noticeBlocks(surface: Surface, text: string): KnownBlock[] {
  return [{ type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(text, 3000) } }, ...sandboxFooter(surface)];
}

/** A notice as a message (a reply, a direct message). */
export function notice(surface: Surface, text: string): Reply {
  return { text, blocks: noticeBlocks(surface, text) };
}

/** A notice as a modal, under `title`, with a Close button and no submit. */
export function noticeModal(surface: Surface, content: { title: string; text: string; callbackId: string }): ModalView {
  return {
    type: 'modal',
    callback_id: content.callbackId,
    title: plainText(content.title, 24),
    close: plainText(textsFor(surface.locale)('common.close'), 24),
    blocks: noticeBlocks(surface, content.text),
  };
}

/** What a modal shows while the lookups before it run, until `views.update` fills it (see src/slack/open-then-fill.ts). */
export function loadingModal(surface: Surface, title: string, callbackId: string): ModalView {
  return noticeModal(surface, { title, text: textsFor(surface.locale)('common.loading'), callbackId });
}

/** A notice as a private reply through `respond`; `replaceOriginal` when it says whether the message a button was on is replaced. */
export function privateNotice(
  surface: Surface,
  text: string,
  options: { replaceOriginal?: boolean } = {},
): Reply & { response_type: 'ephemeral'; replace_original?: boolean } {
  return {
    response_type: 'ephemeral',
    ...(options.replaceOriginal === undefined ? {} : { replace_original: options.replaceOriginal }),
    ...notice(surface, text),
  };
}

/** A notice modal as a modal submission's answer: it takes the submitted modal's place. */
export function noticeUpdate(surface: Surface, content: { title: string; text: string; callbackId: string }): { response_action: 'update'; view: ModalView } {
  return { response_action: 'update', view: noticeModal(surface, content) };
}
