import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModalView } from '@slack/types';
import { defaultProfile, IMPORT_PROFILE, type ImportProfile, type RecordsPreview } from '../../../src/partner-records/index.js';
import { PROFILE, RECORDS } from '../../../src/slack/ids.js';
import { registerImportProfileListeners, zonesFor } from '../../../src/slack/listeners/import-profile.js';
import { FakeRouter, fakeContext, seen, STRANGER, VIEWER } from '../../support/fake-router.js';
import { choose, inputsOf, stateOf } from '../../support/profile-modal-state.js';

// The file is "downloaded" here: the download itself has its own tests.
const download = vi.hoisted(() => vi.fn());
vi.mock('../../../src/slack/files/batch-file-source.js', () => ({ readChosenFile: download }));

const TMB: ImportProfile = IMPORT_PROFILE.parse({
  ...defaultProfile('UTC'),
  name: 'TMB',
  delimiter: ';',
  reference: 'reference',
  amount: { layout: 'signed', amount: 'amount' },
  currency: { column: 'currency' },
  note: undefined,
});
const FILE = 'reference;date;amount;currency\nFL-2;2026-11-02;-20.00;USD\n';
const CLEAN: RecordsPreview = {
  ok: true,
  first: [{ row: 2, date: '2026-11-02', amountMinor: -2000, currency: 'USD', reference: 'FL-2' }],
  records: 1,
  leftOut: [],
  problems: [],
  moreProblems: 0,
};

function setUp(saved: ImportProfile[] = [TMB]) {
  const save = vi.fn(async (profile: ImportProfile) => ({
    ok: true,
    replaced: false,
    saved: { profile, createdBy: VIEWER, updatedBy: VIEWER, updatedAt: new Date() },
  }));
  const records = {
    settings: { maxBytes: 1_000_000, maxRows: 100, toleranceDays: 1 },
    profiles: {
      save,
      byName: vi.fn(async (name: string) => {
        const profile = saved.find((entry) => entry.name.toLowerCase() === name.toLowerCase());
        return profile && { profile, createdBy: VIEWER, updatedBy: VIEWER, updatedAt: new Date() };
      }),
    },
    preview: vi.fn(async () => CLEAN),
  };
  const ctx = fakeContext({ records: records as never });
  const router = new FakeRouter(ctx);
  registerImportProfileListeners(router.router, ctx);
  return { router, records, save };
}

const modalWith = (profile: string | null, values: Record<string, unknown> = {}) => ({
  id: 'V-RECORDS',
  hash: 'h7',
  private_metadata: JSON.stringify({ file: 'F0NOV', profile }),
  state: { values },
});
const updated = (handled: { of: (method: string) => Array<Record<string, unknown>> }) => handled.of('views.update').at(-1) ?? {};
const shownView = (handled: { of: (method: string) => Array<Record<string, unknown>> }) => updated(handled).view as ModalView;
const initialOf = (view: ModalView, block: string) => {
  const element = inputsOf(view).get(block)?.element;
  return element?.initial_value ?? element?.initial_option?.value;
};

/** The builder as a person opens it from the preview of a saved profile. */
async function openedBuilder(router: FakeRouter, profile: string | null = 'TMB'): Promise<ModalView> {
  return shownView(await router.action(profile === null ? RECORDS.makeProfile : RECORDS.editProfile, VIEWER, {}, { view: modalWith(profile) }));
}

describe('the import profile builder', () => {
  beforeEach(() => {
    download.mockReset();
    download.mockResolvedValue({ ok: true, bytes: new TextEncoder().encode(FILE), name: 'nov.csv' });
  });

  it('switches the preview to the builder, made from the file and the profile the preview used, without its name', async () => {
    const { router } = setUp();
    const handled = await router.action(RECORDS.makeProfile, VIEWER, {}, { view: modalWith('TMB') });
    expect(updated(handled)).toMatchObject({ view_id: 'V-RECORDS', hash: 'h7' });
    const view = shownView(handled);
    expect(view.callback_id).toBe(PROFILE.view);
    expect(seen(view)).toContain('nov.csv');
    expect(seen(view)).toContain('FL-2;2026-11-02;-20.00;USD');
    expect(initialOf(view, PROFILE.blocks.name)).toBeUndefined();
    expect(initialOf(view, PROFILE.blocks.delimiter)).toBe('semicolon');
    expect(JSON.parse(view.private_metadata!)).toEqual({ file: 'F0NOV', profile: null });
  });

  it('starts a blank draft from the built-in layout, whose columns the file may not have', async () => {
    const { router } = setUp();
    const view = await openedBuilder(router, null);
    expect(initialOf(view, PROFILE.blocks.delimiter)).toBe('comma');
    expect(initialOf(view, PROFILE.blocks.reference)).toBeUndefined();
    expect(initialOf(view, PROFILE.blocks.amountLayout)).toBe('signed');
  });

  it("says why the file's lines cannot be shown: not text in the draft's encoding", async () => {
    const { router } = setUp();
    download.mockResolvedValue({ ok: true, bytes: Uint8Array.from([...'Libellé;Débit\n'].map((char) => char.charCodeAt(0))), name: 'releve.csv' });
    const view = await openedBuilder(router, null);
    expect(seen(view)).toContain('The file is not text in UTF-8, so its lines cannot be shown: choose its encoding below.');
    const values = choose(stateOf(view), PROFILE.blocks.encoding, 'windows-1252');
    const redrawn = shownView(await router.action(PROFILE.rebuild.encoding, VIEWER, {}, { view: modalWith(null, values) }));
    expect(seen(redrawn)).toContain('Libellé;Débit');
  });

  it('edits a saved profile, and says so when it is gone', async () => {
    const { router } = setUp();
    expect(initialOf(await openedBuilder(router, 'tmb'), PROFILE.blocks.name)).toBe('TMB');
    const gone = await router.action(RECORDS.editProfile, VIEWER, {}, { view: modalWith('Equity') });
    expect(seen(shownView(gone))).toContain('The profile `Equity` is no longer saved');
  });

  it('draws the builder again from its state when the delimiter changes, with the file kept', async () => {
    const { router } = setUp();
    const builder = await openedBuilder(router);
    const values = choose(stateOf(builder), PROFILE.blocks.delimiter, 'comma');
    const handled = await router.action(PROFILE.rebuild.delimiter, VIEWER, {}, { view: modalWith('TMB', values) });
    expect(initialOf(shownView(handled), PROFILE.blocks.delimiter)).toBe('comma');
    expect(download).toHaveBeenCalledTimes(1);
  });

  it('answers a profile without a name with the error beside the field, saving nothing', async () => {
    const { router, save } = setUp();
    const values = choose(stateOf(await openedBuilder(router)), PROFILE.blocks.name, '');
    const handled = await router.submit(PROFILE.view, VIEWER, modalWith('TMB', values));
    expect(handled.acks).toEqual([{ response_action: 'errors', errors: { [PROFILE.blocks.name]: expect.stringContaining('name') } }]);
    expect(save).not.toHaveBeenCalled();
  });

  it('saves the profile for the team, then shows the file previewed with it', async () => {
    const { router, save, records } = setUp();
    const values = choose(stateOf(await openedBuilder(router)), PROFILE.blocks.name, 'Equity');
    const handled = await router.submit(PROFILE.view, VIEWER, modalWith('TMB', values));
    const profile = { ...TMB, name: 'Equity' };
    expect(save).toHaveBeenCalledWith(expect.objectContaining({ name: 'Equity', delimiter: ';', date: TMB.date }), VIEWER);
    expect(seen(handled.acks[0])).toContain('Reading your records');
    expect(records.preview).toHaveBeenCalledWith(expect.any(Uint8Array), expect.objectContaining({ name: profile.name }));
    const preview = shownView(handled);
    expect(preview.callback_id).toBe(RECORDS.previewView);
    expect(seen(preview)).toContain('read with the profile `Equity` (as chosen)');
    expect(JSON.parse(preview.private_metadata!)).toEqual({ file: 'F0NOV', profile: 'Equity' });
  });

  it('refuses an outsider on every click and submission, reading no file and saving nothing', async () => {
    const { router, save } = setUp();
    const clicked = await router.action(RECORDS.makeProfile, STRANGER, {}, { view: modalWith('TMB') });
    expect(seen(shownView(clicked))).toContain("You don't have access");
    const submitted = await router.submit(PROFILE.view, STRANGER, modalWith(null));
    expect(seen(submitted.acks[0])).toContain("You don't have access");
    expect(download).not.toHaveBeenCalled();
    expect(save).not.toHaveBeenCalled();
  });

  it("offers the ledger's zone first, then UTC and the ledger's region", () => {
    const zones = zonesFor('Africa/Kinshasa');
    expect(zones.slice(0, 3)).toEqual(['Africa/Kinshasa', 'UTC', 'Africa/Abidjan']);
    expect(zones.slice(0, 40).every((zone) => zone === 'UTC' || zone.startsWith('Africa/'))).toBe(true);
    expect(new Set(zones).size).toBe(zones.length);
  });
});
