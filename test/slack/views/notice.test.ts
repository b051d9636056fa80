import { describe, expect, it } from 'vitest';
import { notice, noticeModal, noticeUpdate, privateNotice } from '../../../src/slack/views/notice.js';

describe('a notice', () => {
  const said = 'Could not *answer* this command.';

  it('reads the same as a reply and as a modal: one section of its text, then the SANDBOX footer', () => {
    const surface = { sandbox: true, locale: 'en' } as const;
    const reply = notice(surface, said);
    const modal = noticeModal(surface, { title: 'Bulk payout', text: said, callbackId: 'payout_notice' });
    expect(reply.text).toBe(said);
    expect(reply.blocks[0]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: said } });
    expect(reply.blocks.at(-1)?.type).toBe('context');
    expect(modal.blocks).toEqual(reply.blocks);
  });

  it("has no footer outside the sandbox, and a modal closes in the reader's language without a submit button", () => {
    const modal = noticeModal({ sandbox: false, locale: 'fr' }, { title: 'Virement groupé', text: said, callbackId: 'payout_batch_result' });
    expect(modal.blocks).toHaveLength(1);
    expect(modal.close?.text).toBe('Fermer');
    expect(modal.submit).toBeUndefined();
    expect(modal.callback_id).toBe('payout_batch_result');
  });

  it('cuts a long text to the 3,000 characters a section holds', () => {
    const reply = notice({ sandbox: false, locale: 'en' }, 'y'.repeat(4000));
    const section = reply.blocks[0] as { text: { text: string } };
    expect(section.text.text.length).toBeLessThanOrEqual(3000);
  });

  it("is private as a reply, says whether it replaces the message only when asked, and takes a submitted modal's place", () => {
    const surface = { sandbox: false, locale: 'en' } as const;
    expect(privateNotice(surface, said)).toEqual({ response_type: 'ephemeral', ...notice(surface, said) });
    expect(privateNotice(surface, said, { replaceOriginal: false })).toEqual({ response_type: 'ephemeral', replace_original: false, ...notice(surface, said) });
    const content = { title: 'Payout', text: said, callbackId: 'payout_notice' };
    expect(noticeUpdate(surface, content)).toEqual({ response_action: 'update', view: noticeModal(surface, content) });
  });
});
