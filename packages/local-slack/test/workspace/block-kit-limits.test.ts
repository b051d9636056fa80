import { describe, expect, it } from 'vitest';
import { checkMessage, checkView } from '../../src/workspace/block-kit-limits.js';

const plain = (text: string) => ({ type: 'plain_text', text });
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const button = (text: string, value = 'v') => ({ type: 'button', action_id: 'go', text: plain(text), value });

describe('Block Kit limits', () => {
  it('accepts a message that sits exactly on every limit', () => {
    const blocks = [
      { type: 'header', text: plain('H'.repeat(150)) },
      { type: 'section', text: mrkdwn('s'.repeat(3000)) },
      { type: 'section', fields: Array.from({ length: 10 }, () => mrkdwn('f'.repeat(200))) },
      { type: 'actions', block_id: 'b'.repeat(255), elements: Array.from({ length: 25 }, () => button('B'.repeat(75), 'v'.repeat(2000))) },
      { type: 'context', elements: Array.from({ length: 10 }, () => mrkdwn('c')) },
    ];
    expect(checkMessage(blocks, 'fallback')).toEqual([]);
  });

  it('names every limit a message breaks, with the size found and the limit', () => {
    const blocks = [
      { type: 'section', text: mrkdwn('s'.repeat(3001)) },
      { type: 'section', fields: Array.from({ length: 11 }, () => mrkdwn('f')) },
      { type: 'actions', elements: [button('B'.repeat(76))] },
      ...Array.from({ length: 48 }, () => ({ type: 'divider' })),
    ];
    const violations = checkMessage(blocks, 'fallback');
    expect(violations).toEqual([
      'message blocks has 51 blocks (limit 50)',
      'message blocks[0] (section) text is 3001 chars (limit 3000)',
      'message blocks[1] (section) fields has 11 items (limit 10)',
      'message blocks[2].elements[0] (button) text is 76 chars (limit 75)',
    ]);
  });

  it('flags a message whose blocks hold more text in all than Slack accepts', () => {
    const blocks = Array.from({ length: 5 }, () => ({ type: 'section', text: mrkdwn('x'.repeat(2500)) }));
    expect(checkMessage(blocks)).toEqual([expect.stringContaining('12500 chars of text in all')]);
  });

  it('names every limit a modal breaks', () => {
    const violations = checkView({
      type: 'modal',
      title: plain('T'.repeat(25)),
      submit: plain('Submit'),
      private_metadata: 'm'.repeat(3001),
      blocks: [
        {
          type: 'input',
          block_id: 'pick',
          label: plain('Pick'),
          element: {
            type: 'static_select',
            action_id: 'value',
            options: Array.from({ length: 101 }, (_, i) => ({ text: plain(i === 0 ? 'o'.repeat(76) : `option ${i}`), value: `v${i}` })),
          },
        },
      ],
    });
    expect(violations).toEqual([
      'modal blocks[0].element (static_select) options has 101 items (limit 100)',
      'modal blocks[0].element.options[0] text is 76 chars (limit 75)',
      'modal title is 25 chars (limit 24)',
      'modal private_metadata is 3001 chars (limit 3000)',
    ]);
  });
});
