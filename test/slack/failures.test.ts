import { describe, expect, it } from 'vitest';
import { FleetRejectedError } from '../../src/fleet/errors.js';
import { createLogger } from '../../src/logger.js';
import { describeFailure } from '../../src/slack/failures.js';

const logger = createLogger({ level: 'silent' });

describe('describeFailure', () => {
  it("escapes the Fleet API's own words, so its message can neither ping a channel nor disguise a link", () => {
    const error = new FleetRejectedError(400, 'Refused <!channel>: see <https://evil.example|your statement> & retry');
    const text = describeFailure(error, 'read the balance', logger);
    expect(text).toContain('Could not read the balance.');
    expect(text).toContain('Refused &lt;!channel&gt;: see &lt;https://evil.example|your statement&gt; &amp; retry');
  });
});
