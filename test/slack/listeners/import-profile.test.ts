import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModalView } from '@slack/types';
import { defaultProfile, IMPORT_PROFILE, type ImportProfile, type RecordsPreview } from '../../../src/partner-records/index.js';
import { RECORDS } from '../../../src/slack/ids.js';
import { registerImportProfileListeners, type ProfileBuilderKit, type SampleReading, type StateValues } from '../../../src/slack/listeners/import-profile.js';
import { FakeRouter, fakeContext, seen, STRANGER, VIEWER } from '../../support/fake-router.js';

// The file is "downloaded" here: the download itself has its own tests.
const download = vi.hoisted(() => vi.fn());
vi.mock('../../../src/slack/files/batch-file-source.js', () => ({ readChosenFile: download }));

const TMB: ImportProfile = IMPORT_PROFILE.parse({ ...defaultProfile('UTC'), name: 'TMB', delimiter: ';' });
const CLEAN: RecordsPreview = {
  ok: true,
  first: [{ row: 2, date: '2026-11-02', amountMinor: -2000, currency: 'USD', reference: 'FL-2' }],
  records: 1,
  leftOut: [],
  problems: [],
  moreProblems: 0,
};

type Sample = { reading: SampleReading; size: number };

/** A stand-in for the builder's pure pieces: its modal says which draft and sample it was drawn from. */
function standInKit(checked: ReturnType<ProfileBuilderKit<Sample, ImportProfile>['profileFromState']> = { ok: true, profile: { ...TMB, name: 'Equity' } }) {
  const kit = {
    sampleOf: vi.fn((bytes: Uint8Array, reading: SampleReading): Sample => ({ reading, size: bytes.byteLength })),
    buildProfileModal: vi.fn((_surface: unknown, input: { draft: ImportProfile; sample: Sample; privateMetadata: string; fileName: string }): ModalView => ({
      type: 'modal',
      callback_id: 'profile_builder',
      title: { type: 'plain_text', text: 'Import profile' },
      private_metadata: input.privateMetadata,
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: `draft "${input.draft.name}" of ${input.fileName}, ${input.sample.size} bytes read with "${input.sample.reading.delimiter}"`,
          },
        },
      ],
    })),
    draftFromProfile: vi.fn((profile: ImportProfile) => profile),
    draftFromState: vi.fn((_values: StateValues) => ({ ...TMB, delimiter: '\t' as const })),
    profileFromState: vi.fn(() => checked),
    readingOf: vi.fn(({ encoding, delimiter, skipAbove, header }: ImportProfile) => ({ encoding, delimiter, skipAbove, header })),
    ids: { view: 'profile_builder', redraw: ['profile_delimiter'] },
  };
  return kit;
}

function setUp(kit = standInKit(), saved: ImportProfile[] = [TMB]) {
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
  registerImportProfileListeners(router.router, ctx, kit);
  return { router, kit, records, save };
}

const previewModal = (profile: string | null) => ({
  id: 'V-RECORDS',
  hash: 'h7',
  private_metadata: JSON.stringify({ file: 'F0NOV', profile }),
  state: { values: {} },
});
const updated = (handled: { of: (method: string) => Array<Record<string, unknown>> }) => handled.of('views.update').at(-1) ?? {};

describe('the import profile builder', () => {
  beforeEach(() => {
    download.mockReset();
    download.mockResolvedValue({ ok: true, bytes: new TextEncoder().encode('Date;Ref;Amount\n'), name: 'nov.csv' });
  });

  it('switches the preview to the builder, starting from the profile the preview used without its name', async () => {
    const { router, kit } = setUp();
    const handled = await router.action(RECORDS.makeProfile, VIEWER, {}, { view: previewModal('TMB') });
    expect(kit.draftFromProfile).toHaveBeenCalledWith({ ...TMB, name: '' });
    const update = updated(handled);
    expect(update).toMatchObject({ view_id: 'V-RECORDS', hash: 'h7' });
    expect(seen(update.view)).toContain('draft "" of nov.csv, 16 bytes read with ";"');
    expect(JSON.parse((update.view as ModalView).private_metadata!)).toEqual({ file: 'F0NOV', profile: null });
  });

  it('edits a saved profile, and says so when it is gone', async () => {
    const { router } = setUp();
    const edit = await router.action(RECORDS.editProfile, VIEWER, {}, { view: previewModal('tmb') });
    expect(seen(updated(edit).view)).toContain('draft "TMB"');
    const gone = await router.action(RECORDS.editProfile, VIEWER, {}, { view: previewModal('Equity') });
    expect(seen(updated(gone).view)).toContain('The profile `Equity` is no longer saved');
  });

  it('draws the builder again from its state when a dispatch input changes, with the file kept', async () => {
    const { router, kit } = setUp();
    await router.action(RECORDS.makeProfile, VIEWER, {}, { view: previewModal(null) });
    const handled = await router.action('profile_delimiter', VIEWER, {}, { view: previewModal(null) });
    expect(kit.draftFromState).toHaveBeenCalled();
    expect(seen(updated(handled).view)).toContain('read with "\t"');
    expect(download).toHaveBeenCalledTimes(1);
  });

  it('answers a profile the builder refuses with the errors in the form, saving nothing', async () => {
    const { router, save } = setUp(standInKit({ ok: false, errors: { profile_name: 'Give the profile a name.' } }));
    const handled = await router.submit('profile_builder', VIEWER, previewModal(null));
    expect(handled.acks).toEqual([{ response_action: 'errors', errors: { profile_name: 'Give the profile a name.' } }]);
    expect(save).not.toHaveBeenCalled();
  });

  it('saves the profile for the team, then shows the file previewed with it', async () => {
    const { router, save, records } = setUp();
    const handled = await router.submit('profile_builder', VIEWER, previewModal(null));
    expect(save).toHaveBeenCalledWith({ ...TMB, name: 'Equity' }, VIEWER);
    expect(seen(handled.acks[0])).toContain('Reading your records');
    expect(records.preview).toHaveBeenCalledWith(expect.any(Uint8Array), { ...TMB, name: 'Equity' });
    const preview = updated(handled).view as ModalView;
    expect(preview.callback_id).toBe(RECORDS.previewView);
    expect(seen(preview)).toContain('read with the profile `Equity` (as chosen)');
    expect(JSON.parse(preview.private_metadata!)).toEqual({ file: 'F0NOV', profile: 'Equity' });
  });

  it('refuses an outsider on every click and submission, reading no file and saving nothing', async () => {
    const { router, save } = setUp();
    const clicked = await router.action(RECORDS.makeProfile, STRANGER, {}, { view: previewModal('TMB') });
    expect(seen(updated(clicked).view)).toContain("You don't have access");
    const submitted = await router.submit('profile_builder', STRANGER, previewModal(null));
    expect(seen(submitted.acks[0])).toContain("You don't have access");
    expect(download).not.toHaveBeenCalled();
    expect(save).not.toHaveBeenCalled();
  });
});
