import { beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultProfile, IMPORT_PROFILE, type ImportProfile, type RecordsPreview, type RecordsRun } from '../../../src/partner-records/index.js';
import { FileChecks } from '../../../src/slack/files/file-checks.js';
import { RECORDS } from '../../../src/slack/ids.js';
import { namedProfile, recordsSubcommand, registerRecordsListeners } from '../../../src/slack/listeners/partner-records.js';
import { FakeRouter, fakeContext, runSubcommand, seen, STRANGER, VIEWER } from '../../support/fake-router.js';

// The file is "downloaded" here: the download itself (files.info, the private URL) has its own tests.
const download = vi.hoisted(() => vi.fn());
vi.mock('../../../src/slack/files/batch-file-source.js', () => ({ readChosenFile: download }));

const TMB: ImportProfile = IMPORT_PROFILE.parse({
  ...defaultProfile('UTC'),
  name: 'TMB',
  delimiter: ';',
  reference: 'Ref',
  date: { column: 'Date', format: 'DD/MM/YYYY' },
  amount: { layout: 'debit_credit', debit: 'Debit', credit: 'Credit' },
  currency: { fixed: 'USD' },
  note: undefined,
});

const CLEAN: RecordsPreview = {
  ok: true,
  first: [{ row: 2, date: '02/11/2026', amountMinor: -2000, currency: 'USD', reference: 'FL-2' }],
  records: 1,
  leftOut: [],
  problems: [],
  moreProblems: 0,
};

const RUN: RecordsRun = {
  summary: {
    id: 'RC-7K3F9Q',
    userId: VIEWER,
    createdAt: new Date('2026-11-20T10:00:00.000Z'),
    fileName: 'nov.csv',
    periodStart: '2026-11-02',
    periodEnd: '2026-11-02',
    ledgerComplete: true,
    records: 1,
    matched: 1,
    differences: 0,
    notInLedger: 0,
    notInRecords: 0,
    totals: new Map([['USD', { count: 1, minor: -2000 }]]),
    bySum: { groups: 0, records: 0, shown: [] },
  },
  gap: undefined,
  exceptions: [],
  kept: true,
};

function recordsDouble(options: { saved?: ImportProfile[]; preview?: RecordsPreview; run?: RecordsRun } = {}) {
  const saved = options.saved ?? [TMB];
  return {
    settings: { maxBytes: 1_000_000, maxRows: 100, toleranceDays: 1 },
    profiles: {
      list: vi.fn(async () => saved.map((profile) => ({ profile, createdBy: VIEWER, updatedBy: VIEWER, updatedAt: new Date() }))),
      byName: vi.fn(async (name: string) => {
        const profile = saved.find((entry) => entry.name.toLowerCase() === name.toLowerCase());
        return profile && { profile, createdBy: VIEWER, updatedBy: VIEWER, updatedAt: new Date() };
      }),
    },
    pick: vi.fn(async (_content: unknown, name?: string) =>
      name === undefined ? { ok: true, profile: TMB, by: 'header' } : { ok: true, profile: saved.find((entry) => entry.name === name) ?? TMB, by: 'name' },
    ),
    preview: vi.fn(async () => options.preview ?? CLEAN),
    check: vi.fn(async () => ({ ok: true, run: options.run ?? RUN })),
    history: vi.fn(async () => []),
  };
}

function setUp(records = recordsDouble()) {
  const ctx = fakeContext({ records: records as never, fileChecks: new FileChecks() });
  // Viewers are named in FLEET_VIEWERS: no user group is read.
  const router = new FakeRouter(ctx);
  registerRecordsListeners(router.router, ctx);
  return { ctx, router, records };
}

const uploaded = (profileValue = 'auto') => ({
  id: 'V-RECORDS',
  state: {
    values: {
      [RECORDS.fileBlock]: { [RECORDS.input]: { type: 'file_input', files: [{ id: 'F0NOV' }] } },
      [RECORDS.profileBlock]: { [RECORDS.input]: { type: 'static_select', selected_option: { value: profileValue } } },
    },
  },
});

const updatedView = (handled: { of: (method: string) => Array<Record<string, unknown>> }) => handled.of('views.update').at(-1)?.view as Record<string, unknown>;

describe('/fleet reconcile', () => {
  beforeEach(() => {
    download.mockReset();
    download.mockResolvedValue({ ok: true, bytes: new TextEncoder().encode('Date;Ref;Debit;Credit\n02/11/2026;FL-2;20;\n'), name: 'nov.csv' });
  });

  it('says reconciling is unavailable without the ledger, privately', async () => {
    const ctx = fakeContext({ records: undefined });
    const { replies, calls } = await runSubcommand(recordsSubcommand(ctx), ctx, VIEWER);
    expect(calls).toEqual([]);
    expect(replies).toEqual([expect.objectContaining({ response_type: 'ephemeral', replace_original: false })]);
  });

  it('lists the runs kept for `history`', async () => {
    const history = vi.fn(async () => []);
    const ctx = fakeContext({ records: { history } as never });
    const { replies } = await runSubcommand(recordsSubcommand(ctx), ctx, VIEWER, ['history']);
    expect(history).toHaveBeenCalledTimes(1);
    expect(replies).toHaveLength(1);
    expect(seen(replies[0]).length).toBeGreaterThan(0);
  });

  it('reads `profile:` and `profil:` as the word filters of `/fleet transactions` are read, quotes included', () => {
    expect(namedProfile(['profile:tmb'])).toBe('tmb');
    expect(namedProfile(['Profil=TMB'])).toBe('TMB');
    expect(namedProfile(['profile:"Bank', 'TMB"'])).toBe('Bank TMB');
    expect(namedProfile(['history'])).toBeUndefined();
  });

  it('opens the form with the profile named preselected, and answers an unknown name with the saved names', async () => {
    const { ctx } = setUp();
    const opened = await runSubcommand(recordsSubcommand(ctx), ctx, VIEWER, ['profile:tmb']);
    const view = JSON.stringify(opened.of('views.open')[0]?.view);
    expect(view).toContain('"initial_option":{"text":{"type":"plain_text","text":"TMB"');
    const unknown = await runSubcommand(recordsSubcommand(ctx), ctx, VIEWER, ['profil:equity']);
    expect(unknown.of('views.open')).toEqual([]);
    expect(seen(unknown.replies[0])).toContain('There is no saved profile `equity`. Saved profiles: `TMB`.');
  });

  it('acknowledges the upload with "checking…", then shows the file as its profile reads it, matching nothing', async () => {
    const { router, records } = setUp();
    const handled = await router.submit(RECORDS.uploadView, VIEWER, uploaded());
    expect(seen(handled.acks[0])).toContain('Reading your records');
    expect(download).toHaveBeenCalledWith(expect.anything(), 'F0NOV', 1_000_000);
    expect(records.pick).toHaveBeenCalledWith(expect.any(Uint8Array), undefined);
    expect(records.check).not.toHaveBeenCalled();
    const preview = updatedView(handled);
    expect(preview.callback_id).toBe(RECORDS.previewView);
    expect(seen(preview)).toContain("read with the profile `TMB` (picked by the file's header)");
    expect(seen(preview)).toContain('-20.00 USD (money out)');
    expect(JSON.parse(preview.private_metadata as string)).toEqual({ file: 'F0NOV', profile: 'TMB' });
    expect(handled.of('views.update')[0]).toMatchObject({ view_id: 'V-RECORDS' });
  });

  it('reads the file with the profile chosen in the form', async () => {
    const { router, records } = setUp();
    await router.submit(RECORDS.uploadView, VIEWER, uploaded('profile:TMB'));
    expect(records.pick).toHaveBeenCalledWith(expect.any(Uint8Array), 'TMB');
  });

  it('sends the full list of problems to the DM when the modal cannot hold them, and offers no match', async () => {
    const problems = Array.from({ length: 200 }, (_, index) => ({
      row: index + 2,
      column: 'Date',
      position: 1,
      code: 'date_invalid' as const,
      found: `${'9'.repeat(30)}`,
    }));
    const { router } = setUp(recordsDouble({ preview: { ...CLEAN, problems, moreProblems: 0 } }));
    const handled = await router.submit(RECORDS.uploadView, VIEWER, uploaded(), {
      'conversations.open': { ok: true, channel: { id: 'D0VIEWER' } },
      'files.getUploadURLExternal': { ok: true, upload_url: 'http://127.0.0.1:9/upload', file_id: 'F0PROBLEMS' },
    });
    const preview = updatedView(handled);
    expect(preview.submit).toBeUndefined();
    expect(seen(preview)).toContain('*200 problems.*');
    expect(handled.of('conversations.open')).toEqual([{ users: VIEWER }]);
    // The fake Slack takes no upload: the person is told the list could not be sent, with Slack's answer.
    expect(seen(preview)).toContain('The full list could not be sent');
  });

  it('matches the previewed file with its profile, once per modal and file, and sends the DM once', async () => {
    const { router, records } = setUp();
    const preview = { id: 'V-RECORDS', private_metadata: JSON.stringify({ file: 'F0NOV', profile: 'TMB' }) };
    const answers = { 'conversations.open': { ok: true, channel: { id: 'D0VIEWER' } }, 'chat.postMessage': { ok: true, ts: '1.1' } };
    const first = await router.submit(RECORDS.previewView, VIEWER, preview, answers);
    expect(seen(first.acks[0])).toContain('Reading your records');
    expect(records.check).toHaveBeenCalledWith(expect.objectContaining({ userId: VIEWER, fileName: 'nov.csv', sourceKey: 'V-RECORDS:F0NOV', profile: TMB }));
    expect(seen(updatedView(first))).toContain('1 matched');
    expect(first.of('chat.postMessage')).toHaveLength(1);
    records.check.mockResolvedValueOnce({ ok: true, run: { ...RUN, kept: false } });
    const again = await router.submit(RECORDS.previewView, VIEWER, preview, answers);
    expect(seen(updatedView(again))).toContain('1 matched');
    expect(again.of('chat.postMessage')).toEqual([]);
  });

  it('matches with the built-in profile when the preview used it', async () => {
    const { router, records } = setUp();
    await router.submit(RECORDS.previewView, VIEWER, { id: 'V-2', private_metadata: JSON.stringify({ file: 'F0NOV', profile: null }) });
    expect(records.check).toHaveBeenCalledWith(expect.objectContaining({ profile: defaultProfile('UTC') }));
  });

  it('says a profile deleted since the preview is gone, and matches nothing', async () => {
    const { router, records } = setUp(recordsDouble({ saved: [] }));
    const handled = await router.submit(RECORDS.previewView, VIEWER, { id: 'V-3', private_metadata: JSON.stringify({ file: 'F0NOV', profile: 'TMB' }) });
    expect(seen(updatedView(handled))).toContain('The profile `TMB` is no longer saved');
    expect(records.check).not.toHaveBeenCalled();
  });

  it('refuses an outsider at the upload and at the match, reading no file', async () => {
    const { router, records } = setUp();
    const upload = await router.submit(RECORDS.uploadView, STRANGER, uploaded());
    const match = await router.submit(RECORDS.previewView, STRANGER, { private_metadata: JSON.stringify({ file: 'F0NOV', profile: 'TMB' }) });
    for (const handled of [upload, match]) expect(seen(handled.acks[0])).toContain("You don't have access");
    expect(download).not.toHaveBeenCalled();
    expect(records.check).not.toHaveBeenCalled();
  });
});
