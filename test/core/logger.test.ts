import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';

describe('the logger', () => {
  it("never writes a workflow step's function token, in a field or in a message", () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger({ level: 'info', destination });
    logger.info({ event: { bot_access_token: 'xwfp-123-abc' }, functionBotAccessToken: 'xwfp-456-def' }, 'got a step');
    logger.warn('completion failed with token xwfp-789-ghi in the message');
    const written = lines.join('');
    expect(lines).toHaveLength(2);
    expect(written).not.toContain('xwfp-');
    expect(written).toContain('[redacted]');
  });
});
