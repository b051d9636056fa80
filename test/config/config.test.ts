import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { minimal, problemsOf } from '../support/config-env.js';

describe('configuration', () => {
  it('starts in HTTP mode with defaults from the minimal environment', () => {
    const config = loadConfig(minimal);
    expect(config.slack.appToken).toBeUndefined();
    expect(config.slack.port).toBe(3000);
    expect(config.logLevel).toBe('info');
    expect(config.access.viewers.everyone).toBe(false);
    expect(config.access.viewers.users.size).toBe(0);
    expect(config.feed.pollIntervalSeconds).toBe(15);
  });

  it('serves metrics on no port unless METRICS_PORT is set, and on 127.0.0.1 unless METRICS_HOST says otherwise', () => {
    expect(loadConfig(minimal).ops).toEqual({ metricsPort: undefined, metricsHost: '127.0.0.1' });
    expect(loadConfig({ ...minimal, METRICS_PORT: '9100', METRICS_HOST: '0.0.0.0' }).ops).toEqual({ metricsPort: 9100, metricsHost: '0.0.0.0' });
    expect(problemsOf({ ...minimal, METRICS_HOST: 'http://0.0.0.0:9100' })).toEqual([
      'METRICS_HOST: expected a listen address such as 127.0.0.1, 0.0.0.0 or a host name (no scheme, no port)',
    ]);
  });

  it('refuses METRICS_PORT equal to PORT in HTTP mode, where the two must stay apart', () => {
    expect(problemsOf({ ...minimal, PORT: '8080', METRICS_PORT: '8080' })).toEqual([
      "METRICS_PORT: expected a port other than PORT's: metrics and readiness details are served apart from the port that faces Slack",
    ]);
    expect(problemsOf({ ...minimal, METRICS_PORT: '3000' })).toHaveLength(1);
    expect(loadConfig({ ...minimal, METRICS_PORT: '9100' }).ops.metricsPort).toBe(9100);
  });

  it('reads TEAM_TIMEZONE (UTC by default) as the zone the digest, the ledger and the payout days follow unless set apart', () => {
    const plain = loadConfig(minimal);
    expect([plain.payouts.timeZone, plain.digest.timeZone, plain.ledger.timeZone, plain.payoutSchedule.timeZone]).toEqual(['UTC', 'UTC', 'UTC', 'UTC']);
    const team = loadConfig({ ...minimal, TEAM_TIMEZONE: 'Africa/Kinshasa', LEDGER_TIMEZONE: 'Europe/Paris' });
    expect([team.payouts.timeZone, team.digest.timeZone, team.ledger.timeZone]).toEqual(['Africa/Kinshasa', 'Africa/Kinshasa', 'Europe/Paris']);
    expect(team.payoutSchedule).toEqual({ timeZone: 'Africa/Kinshasa', catchUpMinutes: 360, noticeMinutes: 60 });
    // The runway counts the team's days, as the digest that shows it does, whatever zone the ledger's searches use.
    expect(team.runway.timeZone).toBe('Africa/Kinshasa');
    expect(loadConfig({ ...minimal, TEAM_TIMEZONE: 'Africa/Kinshasa', DIGEST_TIMEZONE: 'Africa/Lagos' }).runway.timeZone).toBe('Africa/Lagos');
    expect(problemsOf({ ...minimal, TEAM_TIMEZONE: 'Mars/Olympus' })).toEqual([
      'TEAM_TIMEZONE: expected an IANA time zone name such as UTC or Africa/Kinshasa',
    ]);
  });

  it('reads access lists of users, user groups and everyone', () => {
    const config = loadConfig({ ...minimal, FLEET_VIEWERS: 'U012AB, W0XYZ ,S0GROUP', FLEET_APPROVERS: '*' });
    expect([...config.access.viewers.users]).toEqual(['U012AB', 'W0XYZ']);
    expect([...config.access.viewers.groups]).toEqual(['S0GROUP']);
    expect(config.access.approvers.everyone).toBe(true);
  });

  it('reads per-currency amounts in minor units', () => {
    const config = loadConfig({ ...minimal, PAYOUT_DUAL_APPROVAL_ABOVE: 'USD:1000,eur:999.99,CDF:2500000' });
    expect(config.payouts.dualApprovalAbove.get('USD')).toBe(100000);
    expect(config.payouts.dualApprovalAbove.get('EUR')).toBe(99999);
  });

  it('reads how many approvers a new recipient needs, 2 unless set, and refuses anything but a whole number from 1 to 5', () => {
    expect(loadConfig(minimal).payouts.newRecipientApprovals).toBe(2);
    expect(loadConfig({ ...minimal, PAYOUT_NEW_RECIPIENT_APPROVALS: '3' }).payouts.newRecipientApprovals).toBe(3);
    for (const value of ['0', '6', '2.5', 'two']) {
      expect(problemsOf({ ...minimal, PAYOUT_NEW_RECIPIENT_APPROVALS: value })).toEqual([
        'PAYOUT_NEW_RECIPIENT_APPROVALS: expected a whole number from 1 to 5',
      ]);
    }
  });

  it('mentions approvers and reminds them 60 minutes before expiry unless told otherwise, and names a bad value', () => {
    expect(loadConfig(minimal).approverNotices).toEqual({ mention: true, reminderMinutes: 60 });
    expect(loadConfig({ ...minimal, PAYOUT_MENTION_APPROVERS: 'false', PAYOUT_APPROVAL_REMINDER_MINUTES: '0' }).approverNotices).toEqual({
      mention: false,
      reminderMinutes: 0,
    });
    expect(problemsOf({ ...minimal, PAYOUT_MENTION_APPROVERS: 'maybe', PAYOUT_APPROVAL_REMINDER_MINUTES: '-5' })).toEqual([
      'PAYOUT_MENTION_APPROVERS: expected true or false',
      'PAYOUT_APPROVAL_REMINDER_MINUTES: expected a whole number from 0 to 43200',
    ]);
  });

  it('reads the possible-duplicate window in hours, 72 unless set, and refuses anything but a whole number from 1 to 720', () => {
    expect(loadConfig(minimal).payouts.duplicateWindowHours).toBe(72);
    expect(loadConfig({ ...minimal, PAYOUT_DUPLICATE_WINDOW_HOURS: '24' }).payouts.duplicateWindowHours).toBe(24);
    for (const value of ['0', '721', '1.5', 'three days']) {
      expect(problemsOf({ ...minimal, PAYOUT_DUPLICATE_WINDOW_HOURS: value })).toEqual([
        'PAYOUT_DUPLICATE_WINDOW_HOURS: expected a whole number from 1 to 720',
      ]);
    }
  });

  it('reads the senior tier, off unless set, and refuses bad values naming the variable', () => {
    const payouts = { ...minimal, APPROVAL_CHANNEL_ID: 'C0APPROVALS', FLEET_APPROVERS: 'U0ABEL,U0ADA,U0SENIOR' };
    expect(loadConfig(payouts).payouts.seniorApprovalAbove.size).toBe(0);
    const tier = { PAYOUT_SENIOR_APPROVAL_ABOVE: 'USD:10000,EUR:9000,CDF:25000000', PAYOUT_SENIOR_APPROVERS: 'U0SENIOR,S0CFO' };
    const config = loadConfig({ ...payouts, ...tier });
    expect(config.payouts.seniorApprovalAbove).toEqual(
      new Map([
        ['USD', 1_000_000],
        ['EUR', 900_000],
        ['CDF', 2_500_000_000],
      ]),
    );
    expect([...config.access.seniorApprovers.users, ...config.access.seniorApprovers.groups]).toEqual(['U0SENIOR', 'S0CFO']);
    expect(problemsOf({ ...payouts, ...tier, PAYOUT_SENIOR_APPROVAL_ABOVE: 'USD:lots' })).toEqual([
      'PAYOUT_SENIOR_APPROVAL_ABOVE: expected CURRENCY:AMOUNT pairs separated by commas, like USD:1000,EUR:1000 (amounts with a dot, positive)',
    ]);
    expect(problemsOf({ ...payouts, ...tier, PAYOUT_SENIOR_APPROVAL_ABOVE: 'USD:10000' })).toEqual([
      'PAYOUT_SENIOR_APPROVAL_ABOVE: expected an amount for every payout currency; missing EUR, CDF',
    ]);
    expect(problemsOf({ ...payouts, PAYOUT_SENIOR_APPROVAL_ABOVE: tier.PAYOUT_SENIOR_APPROVAL_ABOVE })).toEqual([
      'PAYOUT_SENIOR_APPROVERS: required when PAYOUT_SENIOR_APPROVAL_ABOVE is set: the user IDs or user groups whose approval a payout above it needs',
    ]);
    expect(problemsOf({ ...payouts, PAYOUT_SENIOR_APPROVERS: 'U0SENIOR' })).toEqual([
      'PAYOUT_SENIOR_APPROVAL_ABOVE: required when PAYOUT_SENIOR_APPROVERS is set: CURRENCY:AMOUNT pairs above which a senior approval is needed, like USD:10000,EUR:9000',
    ]);
    expect(problemsOf({ ...payouts, ...tier, PAYOUT_SENIOR_APPROVERS: '*' })).toEqual([
      'PAYOUT_SENIOR_APPROVERS: expected Slack user IDs (U…, W…) or user-group IDs (S…), not *: a senior approver is some of the approvers',
    ]);
    expect(problemsOf({ ...payouts, ...tier, PAYOUT_SENIOR_APPROVERS: 'U0BOSS' })).toEqual([
      'PAYOUT_SENIOR_APPROVERS: expected approvers only; U0BOSS not in FLEET_APPROVERS (a senior approver must also be an approver)',
    ]);
    // With groups among the approvers, a senior approver's being an approver is checked when they approve.
    expect(
      loadConfig({ ...payouts, ...tier, FLEET_APPROVERS: 'S0TREASURY', PAYOUT_SENIOR_APPROVERS: 'U0BOSS' }).access.seniorApprovers.users.has('U0BOSS'),
    ).toBe(true);
  });

  it('refuses a rule that needs more approvers than FLEET_APPROVERS names, naming the variables', () => {
    const payouts = { ...minimal, APPROVAL_CHANNEL_ID: 'C0APPROVALS', FLEET_REQUESTERS: 'U0RITA' };
    expect(problemsOf({ ...payouts, FLEET_APPROVERS: 'U0ABEL', PAYOUT_NEW_RECIPIENT_APPROVALS: '2' })).toEqual([
      'PAYOUT_DUAL_APPROVAL_ABOVE: a payout above its amounts needs 2 different approvers, but FLEET_APPROVERS names 1; list more approvers in FLEET_APPROVERS (or a user group)',
      'PAYOUT_NEW_RECIPIENT_APPROVALS: a payout for a recipient never paid before needs 2 different approvers, but FLEET_APPROVERS names 1; ' +
        'list more approvers in FLEET_APPROVERS (or a user group), or set PAYOUT_NEW_RECIPIENT_APPROVALS to 1 or less',
    ]);
    expect(problemsOf({ ...payouts, FLEET_APPROVERS: 'U0ABEL,U0ADA', PAYOUT_NEW_RECIPIENT_APPROVALS: '3' })).toEqual([
      'PAYOUT_NEW_RECIPIENT_APPROVALS: a payout for a recipient never paid before needs 3 different approvers, but FLEET_APPROVERS names 2; ' +
        'list more approvers in FLEET_APPROVERS (or a user group), or set PAYOUT_NEW_RECIPIENT_APPROVALS to 2 or less',
    ]);
    expect(loadConfig({ ...payouts, FLEET_APPROVERS: 'U0ABEL,U0ADA', PAYOUT_NEW_RECIPIENT_APPROVALS: '2' }).payouts.newRecipientApprovals).toBe(2);
    // Groups are counted at run time (the approval message says when too few can approve); without an approval channel, payouts are off.
    expect(loadConfig({ ...payouts, FLEET_APPROVERS: 'S0TREASURY', PAYOUT_NEW_RECIPIENT_APPROVALS: '5' }).payouts.newRecipientApprovals).toBe(5);
    expect(loadConfig({ ...minimal, FLEET_APPROVERS: 'U0ABEL' }).access.approvers.users.size).toBe(1);
  });

  it('refuses to start when a payout currency has no dual-approval threshold, naming the variable and the currency', () => {
    expect(problemsOf({ ...minimal, PAYOUT_DUAL_APPROVAL_ABOVE: 'USD:500' })).toEqual([
      'PAYOUT_DUAL_APPROVAL_ABOVE: expected an amount for every payout currency; missing EUR, CDF',
    ]);
    expect(problemsOf({ ...minimal, PAYOUT_CURRENCIES: 'USD,EUR,CDF,GBP' })).toEqual([
      'PAYOUT_MAX_AMOUNT: expected an amount for every payout currency; missing GBP',
      'PAYOUT_DAILY_LIMIT: expected an amount for every payout currency; missing GBP',
      'PAYOUT_DUAL_APPROVAL_ABOVE: expected an amount for every payout currency; missing GBP',
    ]);
  });

  it('has a maximum, a daily limit and a dual-approval threshold by default for every default payout currency', () => {
    const { payouts } = loadConfig(minimal);
    for (const currency of payouts.currencies) {
      expect([payouts.maxAmount.has(currency), payouts.dailyLimit.has(currency), payouts.dualApprovalAbove.has(currency)], currency).toEqual([
        true,
        true,
        true,
      ]);
    }
  });

  it('names each bad variable once with what it expects', () => {
    const problems = problemsOf({ FLEET_API_URL: 'ftp://fleet', PORT: 'eighty', FLEET_VIEWERS: 'U1,alice', FEED_POLL_INTERVAL_SECONDS: '2' });
    expect(problems).toContain('SLACK_BOT_TOKEN: required: the bot token, starting with xoxb-');
    expect(problems).toContain('FLEET_API_URL: expected an http(s) URL or the word sandbox');
    expect(problems).toContain('PORT: expected a whole number from 0 to 65535');
    expect(problems).toContain('FEED_POLL_INTERVAL_SECONDS: expected a whole number from 5 to 3600');
    expect(problems.some((line) => line.startsWith('FLEET_VIEWERS: expected a comma list'))).toBe(true);
  });

  it('requires the signing secret in HTTP mode and the API key for a real Fleet API', () => {
    const problems = problemsOf({ SLACK_BOT_TOKEN: 'xoxb-1', FLEET_API_URL: 'https://fleet.example.com' });
    expect(problems.some((line) => line.startsWith('SLACK_SIGNING_SECRET: required in HTTP mode'))).toBe(true);
    expect(problems.some((line) => line.startsWith('FLEET_API_KEY: required unless FLEET_API_URL=sandbox'))).toBe(true);
  });

  it('never echoes a secret value in its messages', () => {
    const secret = 'xoxp-this-is-a-user-token-not-a-bot-token';
    const problems = problemsOf({ ...minimal, SLACK_BOT_TOKEN: secret, SLACK_APP_TOKEN: 'bad-app-token-value' });
    expect(problems.join('\n')).not.toContain(secret);
    expect(problems.join('\n')).not.toContain('bad-app-token-value');
    expect(problems).toContain('SLACK_BOT_TOKEN: expected a bot token starting with xoxb-');
  });

  it('accepts Socket Mode without a signing secret', () => {
    const config = loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1-abc', FLEET_API_URL: 'sandbox' });
    expect(config.slack.appToken).toBe('xapp-1-abc');
  });

  it('names every missing variable in one round, the signing secret included', () => {
    expect(problemsOf({})).toEqual([
      'SLACK_BOT_TOKEN: required: the bot token, starting with xoxb-',
      'FLEET_API_URL: required: the Fleet API base URL, or the word sandbox',
      "SLACK_SIGNING_SECRET: required in HTTP mode (when SLACK_APP_TOKEN is not set): the app's signing secret",
    ]);
  });

  it('reports a missing payout threshold together with the other problems', () => {
    const problems = problemsOf({ FLEET_API_URL: 'sandbox', PAYOUT_CURRENCIES: 'USD,GBP' });
    expect(problems).toContain('SLACK_BOT_TOKEN: required: the bot token, starting with xoxb-');
    expect(problems).toContain('PAYOUT_DUAL_APPROVAL_ABOVE: expected an amount for every payout currency; missing GBP');
  });

  it('speaks English to people and channels unless told otherwise', () => {
    expect(loadConfig(minimal).language).toEqual({ defaultLocale: 'en', channelLocale: 'en' });
  });

  it('writes to channels in DEFAULT_LOCALE unless CHANNEL_LOCALE says otherwise', () => {
    expect(loadConfig({ ...minimal, DEFAULT_LOCALE: 'fr' }).language).toEqual({ defaultLocale: 'fr', channelLocale: 'fr' });
    expect(loadConfig({ ...minimal, DEFAULT_LOCALE: 'FR', CHANNEL_LOCALE: 'en' }).language).toEqual({ defaultLocale: 'fr', channelLocale: 'en' });
  });

  it('refuses a language the app does not speak, naming the variable and the allowed values, in one round', () => {
    expect(problemsOf({ ...minimal, DEFAULT_LOCALE: 'pt', CHANNEL_LOCALE: 'fr-FR', PORT: 'x' })).toEqual([
      'PORT: expected a whole number from 0 to 65535',
      'DEFAULT_LOCALE: expected one of en, fr',
      'CHANNEL_LOCALE: expected one of en, fr',
    ]);
  });

  it('lists the allowed values of LOG_LEVEL', () => {
    expect(problemsOf({ ...minimal, LOG_LEVEL: 'loud' })).toEqual(['LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent']);
  });

  it("reads the records check's limits and tolerance, 10 MiB, 50,000 rows and 1 day by default, and names a bad one", () => {
    expect(loadConfig(minimal).records).toEqual({ maxBytes: 10 * 1024 * 1024, maxRows: 50_000, toleranceDays: 1 });
    expect(loadConfig({ ...minimal, RECORDS_MAX_BYTES: '2048', RECORDS_MAX_ROWS: '10', RECORDS_MATCH_TOLERANCE_DAYS: '0' }).records).toEqual({
      maxBytes: 2048,
      maxRows: 10,
      toleranceDays: 0,
    });
    expect(problemsOf({ ...minimal, RECORDS_MATCH_TOLERANCE_DAYS: '-1', RECORDS_MAX_ROWS: 'many' })).toEqual([
      'RECORDS_MAX_ROWS: expected a whole number from 1 to 1000000',
      'RECORDS_MATCH_TOLERANCE_DAYS: expected a whole number from 0 to 31',
    ]);
  });

  it('reads the bulk payout limits, 500 rows and 2 a second by default, and names a bad one', () => {
    expect(loadConfig(minimal).payoutBatches).toEqual({ maxRows: 500, ratePerSecond: 2 });
    expect(loadConfig({ ...minimal, PAYOUT_BATCH_MAX_ROWS: '20', PAYOUT_BATCH_RATE: '50' }).payoutBatches).toEqual({ maxRows: 20, ratePerSecond: 50 });
    expect(problemsOf({ ...minimal, PAYOUT_BATCH_MAX_ROWS: '0', PAYOUT_BATCH_RATE: 'fast' })).toEqual([
      'PAYOUT_BATCH_MAX_ROWS: expected a whole number from 1 to 5000',
      'PAYOUT_BATCH_RATE: expected a whole number from 1 to 1000',
    ]);
  });

  it('ignores the signing secret in Socket Mode, so .env.example works as is with SLACK_APP_TOKEN set', () => {
    const example: Record<string, string> = {};
    for (const line of readFileSync(new URL('../../.env.example', import.meta.url), 'utf8').split('\n')) {
      const match = /^#?\s*(SLACK_APP_TOKEN|[A-Z_]+)=(.*)$/.exec(line);
      if (match && (!line.startsWith('#') || match[1] === 'SLACK_APP_TOKEN')) example[match[1] ?? ''] = match[2] ?? '';
    }
    expect(example.SLACK_SIGNING_SECRET).toBe('your-signing-secret');
    expect(example.SLACK_APP_TOKEN).toMatch(/^xapp-/);
    const config = loadConfig(example);
    expect(config.slack.appToken).toBe(example.SLACK_APP_TOKEN);
    expect(config.slack.signingSecret).toBeUndefined();
    // In HTTP mode the same placeholder is refused.
    expect(problemsOf({ ...example, SLACK_APP_TOKEN: '' })).toEqual([
      "SLACK_SIGNING_SECRET: expected the app's signing secret (letters and digits, from Basic Information)",
    ]);
  });
});

describe('SLACK_TEAM_ID', () => {
  it('takes a workspace ID for an org-wide install, is unset otherwise, and refuses anything else', () => {
    expect(loadConfig(minimal).slack.teamId).toBeUndefined();
    expect(loadConfig({ ...minimal, SLACK_TEAM_ID: 'T0123456789' }).slack.teamId).toBe('T0123456789');
    expect(problemsOf({ ...minimal, SLACK_TEAM_ID: 'E0123456789' })).toEqual(['SLACK_TEAM_ID: expected a workspace ID such as T0123456789']);
  });
});
