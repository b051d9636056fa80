import { describe, expect, it } from 'vitest';
import { isTableFile, mayCarryBotToken } from '../../../src/slack/files/batch-file-source.js';

const SLACK_API = 'https://slack.com/api/';
const LOCAL_API = 'http://127.0.0.1:4100/api/';

describe('where a private file URL may be sent the bot token', () => {
  it("allows Slack's file host over https", () => {
    expect(mayCarryBotToken('https://files.slack.com/files-pri/T0-F0/download/rows.csv', SLACK_API)).toBe(true);
  });

  it("allows the Slack API's own origin, where the local workspace serves its files", () => {
    expect(mayCarryBotToken('http://127.0.0.1:4100/files-pri/T0-F0/rows.csv', LOCAL_API)).toBe(true);
  });

  it("refuses Slack's file host over plain http or on another port", () => {
    expect(mayCarryBotToken('http://files.slack.com/files-pri/T0-F0/rows.csv', SLACK_API)).toBe(false);
    expect(mayCarryBotToken('https://files.slack.com:8443/files-pri/T0-F0/rows.csv', SLACK_API)).toBe(false);
  });

  it("refuses hosts that only look like Slack's", () => {
    for (const url of [
      'https://files.slack.com.example.net/rows.csv',
      'https://files.slack.com@example.net/rows.csv',
      'https://example.net/files.slack.com/rows.csv',
      'https://evilslack.com/rows.csv',
    ])
      expect(mayCarryBotToken(url, SLACK_API), url).toBe(false);
  });

  it("refuses another loopback port than the local workspace's, and what is not a URL", () => {
    expect(mayCarryBotToken('http://127.0.0.1:4101/files-pri/T0-F0/rows.csv', LOCAL_API)).toBe(false);
    expect(mayCarryBotToken('files-pri/T0-F0/rows.csv', LOCAL_API)).toBe(false);
  });
});

describe('which chosen files are read', () => {
  it('takes CSV, TSV and TXT text tables and Excel workbooks, by Slack’s file type or by the name', () => {
    expect(['csv', 'tsv', 'text', 'xlsx'].map((type) => isTableFile(type, 'export'))).toEqual([true, true, true, true]);
    expect(['payouts.CSV', 'payouts.tsv', 'payouts.txt', 'Payouts.XLSX'].map((name) => isTableFile('binary', name))).toEqual([true, true, true, true]);
  });

  it('refuses other kinds: an old Excel file, a PDF, a picture', () => {
    expect(isTableFile('xls', 'payouts.xls')).toBe(false);
    expect(isTableFile('pdf', 'payouts.pdf')).toBe(false);
    expect(isTableFile('png', 'photo.png')).toBe(false);
  });
});
