import { describe, expect, it } from 'vitest';
import { TokenBox } from '../../src/slack/trust/token-box.js';

describe('TokenBox', () => {
  const token = 'xwfp-1234-abcdef';

  it('seals a function token so that the stored text does not hold it, and opens it again', () => {
    const box = new TokenBox('xoxb-bot-token');
    const sealed = box.seal(token);
    expect(sealed).not.toContain(token);
    expect(sealed).not.toContain('xwfp');
    expect(box.open(sealed)).toBe(token);
    // A new nonce each time: the same token never seals to the same text.
    expect(box.seal(token)).not.toBe(sealed);
  });

  it('opens nothing sealed under another key, or changed', () => {
    const sealed = new TokenBox('xoxb-bot-token').seal(token);
    expect(new TokenBox('xoxb-other-token').open(sealed)).toBeUndefined();
    const [iv, body, tag] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(new TokenBox('xoxb-bot-token').open([iv, flipped.toString('base64url'), tag].join('.'))).toBeUndefined();
    expect(new TokenBox('xoxb-bot-token').open('not-sealed')).toBeUndefined();
  });
});
