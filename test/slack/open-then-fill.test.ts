import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { openThenFill, type ModalOrRefusal } from '../../src/slack/open-then-fill.js';

const modal = (text: string): ModalView => ({ type: 'modal', title: { type: 'plain_text', text }, blocks: [] });
const views = {
  loading: () => modal('Loading…'),
  refusal: (text: string) => modal(`refused: ${text}`),
  failure: (error: unknown) => modal(`failed: ${(error as Error).message}`),
};
const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

/** A client that records views.open and views.update, in order, with the time since the start. */
function recordingClient() {
  const started = performance.now();
  const calls: Array<{ method: string; title: string; at: number; viewId?: string; hash?: string }> = [];
  const client = {
    views: {
      open: async (args: { view: ModalView }) => {
        calls.push({ method: 'views.open', title: args.view.title.text, at: performance.now() - started });
        return { ok: true, view: { id: 'V1', hash: 'h1' } };
      },
      update: async (args: { view: ModalView; view_id: string; hash?: string }) => {
        calls.push({
          method: 'views.update',
          title: args.view.title.text,
          at: performance.now() - started,
          viewId: args.view_id,
          ...(args.hash ? { hash: args.hash } : {}),
        });
        return { ok: true };
      },
    },
  };
  return { calls, client: client as unknown as WebClient };
}

describe('opening a modal before slow lookups spend the trigger', () => {
  it('opens the finished modal at once when the lookups answer quickly', async () => {
    const { calls, client } = recordingClient();
    expect(await openThenFill(client, 'T1', after<ModalOrRefusal>(10, { view: modal('Approve PR-1') }), views, 200)).toBeUndefined();
    expect(calls.map(({ method, title }) => ({ method, title }))).toEqual([{ method: 'views.open', title: 'Approve PR-1' }]);
  });

  it('hands a quick refusal back to be told as before, opening nothing', async () => {
    const { calls, client } = recordingClient();
    expect(await openThenFill(client, 'T1', after<ModalOrRefusal>(10, { refusal: 'not yours' }), views, 200)).toEqual({ refusal: 'not yours' });
    expect(calls).toEqual([]);
  });

  it('opens the loading view when the lookups are slow, then fills it with the modal, keeping its hash', async () => {
    const { calls, client } = recordingClient();
    await openThenFill(client, 'T1', after<ModalOrRefusal>(600, { view: modal('Approve PR-1') }), views, 200);
    expect(calls.map(({ method, title, viewId, hash }) => ({ method, title, viewId, hash }))).toEqual([
      { method: 'views.open', title: 'Loading…', viewId: undefined, hash: undefined },
      { method: 'views.update', title: 'Approve PR-1', viewId: 'V1', hash: 'h1' },
    ]);
    expect(calls[0]!.at).toBeLessThan(500);
  });

  it('shows a slow refusal in the modal already open', async () => {
    const { calls, client } = recordingClient();
    expect(await openThenFill(client, 'T1', after<ModalOrRefusal>(400, { refusal: 'not yours' }), views, 100)).toBeUndefined();
    expect(calls.map(({ method, title }) => `${method}: ${title}`)).toEqual(['views.open: Loading…', 'views.update: refused: not yours']);
  });

  it('replaces the loading view with the failure when the lookups fail after it opened, instead of leaving it loading', async () => {
    const { calls, client } = recordingClient();
    const failing = after(300, undefined).then((): ModalOrRefusal => {
      throw new Error('database gone');
    });
    expect(await openThenFill(client, 'T1', failing, views, 100)).toBeUndefined();
    expect(calls.map(({ method, title }) => `${method}: ${title}`)).toEqual(['views.open: Loading…', 'views.update: failed: database gone']);
  });

  it('hands a quick failure back to the caller, opening nothing', async () => {
    const { calls, client } = recordingClient();
    const failing = after(10, undefined).then((): ModalOrRefusal => {
      throw new Error('database gone');
    });
    await expect(openThenFill(client, 'T1', failing, views, 200)).rejects.toThrow('database gone');
    expect(calls).toEqual([]);
  });
});
