import { describe, expect, it } from 'vitest';
import { textsFor } from '../../../src/i18n/index.js';
import { scheduleInputBlocks } from '../../../src/slack/views/payout-schedule.js';

describe('the When fields of the payout form', () => {
  it("shows the time picker in the team's zone, the zone the time is read in, not each person's own", () => {
    const blocks = scheduleInputBlocks(textsFor('en'), 'Africa/Kinshasa', { sendAt: '09:30' });
    const picker = blocks.map((block) => block.element).find((element) => element.type === 'timepicker');
    expect(picker).toMatchObject({ type: 'timepicker', initial_time: '09:30', timezone: 'Africa/Kinshasa' });
  });
});
