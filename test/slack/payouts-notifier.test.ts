import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import type { PayoutRequest } from '../../src/payouts/index.js';
import { SlackPayoutNotifier } from '../../src/slack/payout-notifier.js';
import { pendingRequest } from '../payouts/doubles.js';

const at = new Date('2026-11-21T10:00:00.000Z');
const pending = pendingRequest({ approvalMessage: { channel: 'C0APPROVALS', ts: '1.000001' }, version: 2 });

describe('payout approval message updates', () => {
  it('shows the request again when another replica changed it while the message was being updated', async () => {
    let stored: PayoutRequest = pending;
    const updates: string[] = [];
    const client = {
      chat: {
        update: async (message: { text: string }) => {
          // Meanwhile another replica sends the payout and updates the message first; ours lands last.
          if (updates.length === 0) {
            stored = { ...pending, state: 'completed', transactionId: 'PO-ABC', approvals: [{ userId: 'U0APPROVER', at }], version: 5 };
          }
          updates.push(message.text);
          return { ok: true };
        },
        postMessage: async () => ({ ok: true }),
      },
    } as unknown as WebClient;
    const notifier = new SlackPayoutNotifier({ client, surface: { sandbox: false }, logger: createLogger({ level: 'silent' }), approvalChannelId: 'C0APPROVALS' });
    notifier.attach({ get: async () => stored, setApprovalMessage: async () => undefined });

    await notifier.changed(pending, 'requested', 'U0REQUESTER');
    await notifier.idle();

    expect(updates).toHaveLength(2);
    expect(updates.at(-1)).toContain('sent (transaction PO-ABC)');
  });

  it('leaves one approval message when two replicas post it at the same moment', async () => {
    let stored: PayoutRequest = { ...pending, approvalMessage: undefined };
    const live = new Set<string>();
    let posts = 0;
    const client = {
      chat: {
        postMessage: async () => {
          posts += 1;
          const ts = `1.00000${posts}`;
          live.add(ts);
          return { ok: true, channel: 'C0APPROVALS', ts };
        },
        update: async () => ({ ok: true }),
        delete: async ({ ts }: { ts: string }) => {
          live.delete(ts);
          return { ok: true };
        },
      },
    } as unknown as WebClient;
    const records = {
      get: async () => stored,
      setApprovalMessage: async (_id: string, channel: string, ts: string) => {
        if (stored.approvalMessage) return undefined;
        stored = { ...stored, approvalMessage: { channel, ts } };
        return stored;
      },
    };
    const replicas = [1, 2].map(() => {
      const notifier = new SlackPayoutNotifier({ client, surface: { sandbox: false }, logger: createLogger({ level: 'silent' }), approvalChannelId: 'C0APPROVALS' });
      notifier.attach(records);
      return notifier;
    });

    for (const notifier of replicas) notifier.repostIfMissing(stored);
    await Promise.all(replicas.map((notifier) => notifier.idle()));

    expect(posts).toBe(2);
    expect([...live]).toEqual([stored.approvalMessage?.ts]);
  });
});
