import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { minimal, problemsOf } from '../support/config-env.js';

const key1 = Buffer.alloc(32, 1).toString('base64');
const key2 = Buffer.alloc(32, 2).toString('base64');

/** The smallest environment hosted mode starts with. */
const hosted = {
  SLACK_SIGNING_SECRET: 'a1b2c3d4e5f6a7b8c9d0',
  FLEET_API_URL: 'https://fleet.example.com',
  SLACK_CLIENT_ID: '1234567890.9876543210',
  SLACK_CLIENT_SECRET: '0123456789abcdef0123456789abcdef',
  SLACK_STATE_SECRET: 'state-secret-of-at-least-32-characters!!',
  KEY_ENCRYPTION_KEYS: `k2:${key2},k1:${key1}`,
  DATABASE_URL: 'postgres://fleet@db:5432/fleet',
  DATABASE_OWNER_URL: 'postgres://fleet_owner@db:5432/fleet',
  PUBLIC_URL: 'https://fleet.example.com/',
};

describe('hosted mode configuration', () => {
  it('stays off for one workspace, which behaves as before', () => {
    const config = loadConfig(minimal);
    expect(config.hosting).toBeUndefined();
    expect(config.slack.botToken).toBe(minimal.SLACK_BOT_TOKEN);
    expect(config.store.ownerUrl).toBeUndefined();
  });

  it('reads the hosting settings, without a bot token nor a Fleet API key of its own', () => {
    const config = loadConfig(hosted);
    expect(config.hosting).toMatchObject({
      clientId: '1234567890.9876543210',
      clientSecret: hosted.SLACK_CLIENT_SECRET,
      stateSecret: hosted.SLACK_STATE_SECRET,
      retentionDays: 30,
      publicUrl: 'https://fleet.example.com',
    });
    expect(config.hosting?.keyRing.current.id).toBe('k2');
    expect([...(config.hosting?.keyRing.byId.keys() ?? [])]).toEqual(['k2', 'k1']);
    expect(config.slack.botToken).toBe('');
    expect(config.fleet.apiKey).toBeUndefined();
    expect(config.slack.signingSecret).toBe(hosted.SLACK_SIGNING_SECRET);
  });

  it('turns on with any one of its four variables and then names each missing one, with the rest, in one round', () => {
    expect(problemsOf({ ...minimal, SLACK_BOT_TOKEN: '', SLACK_STATE_SECRET: hosted.SLACK_STATE_SECRET })).toEqual([
      'SLACK_CLIENT_ID: required in hosted mode (when one of SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET, KEY_ENCRYPTION_KEYS is set): ' +
        "the app's Client ID, from Basic Information → App Credentials",
      'SLACK_CLIENT_SECRET: required in hosted mode (when one of SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET, KEY_ENCRYPTION_KEYS is set): ' +
        "the app's Client Secret, from Basic Information → App Credentials",
      'KEY_ENCRYPTION_KEYS: required in hosted mode (when one of SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET, KEY_ENCRYPTION_KEYS is set): ' +
        'the key-encryption keys, id:key (openssl rand -base64 32)',
      'DATABASE_URL: required in hosted mode: hosted mode needs Postgres',
      "DATABASE_OWNER_URL: required in hosted mode: the role that owns the tables and runs the migrations, so that DATABASE_URL's role is confined by row-level security",
      'PUBLIC_URL: required in hosted mode: an https URL of the app as Slack reaches it, such as https://fleet.example.com (http only for 127.0.0.1 or localhost)',
    ]);
    const problems = problemsOf({ KEY_ENCRYPTION_KEYS: hosted.KEY_ENCRYPTION_KEYS, PORT: 'eighty' });
    expect(problems).toContain('PORT: expected a whole number from 0 to 65535');
    expect(problems).toContain('FLEET_API_URL: required: the Fleet API base URL, or the word sandbox');
    expect(problems.some((line) => line.startsWith('SLACK_SIGNING_SECRET: required'))).toBe(true);
    expect(problems.some((line) => line.startsWith('SLACK_BOT_TOKEN'))).toBe(false);
  });

  it("refuses a bad key ring with parseKeyRing's message, never a key", () => {
    const short = Buffer.alloc(16, 7).toString('base64');
    const problems = problemsOf({ ...hosted, KEY_ENCRYPTION_KEYS: `k1:${short}` });
    expect(problems).toEqual([
      'KEY_ENCRYPTION_KEYS: key k1 is not 32 bytes in base64: expected a comma list of id:key, each key 32 random bytes in base64 (openssl rand -base64 32), the first one current',
    ]);
    expect(problems.join('\n')).not.toContain(short);
    expect(problemsOf({ ...hosted, KEY_ENCRYPTION_KEYS: `k1:${key1},k1:${key2}` })).toEqual(['KEY_ENCRYPTION_KEYS: key id k1 appears twice']);
  });

  it('refuses a short state secret and malformed client credentials without echoing them', () => {
    const problems = problemsOf({ ...hosted, SLACK_STATE_SECRET: 'too-short-secret', SLACK_CLIENT_ID: 'client', SLACK_CLIENT_SECRET: 'bad secret!' });
    expect(problems).toEqual([
      "SLACK_CLIENT_ID: expected the app's Client ID (digits, a dot, digits, from Basic Information → App Credentials)",
      "SLACK_CLIENT_SECRET: expected the app's Client Secret (letters and digits, from Basic Information → App Credentials)",
      'SLACK_STATE_SECRET: expected at least 32 characters (openssl rand -hex 32)',
    ]);
    expect(problems.join('\n')).not.toContain('too-short-secret');
    expect(problems.join('\n')).not.toContain('bad secret!');
  });

  it("refuses the variables of a single workspace and Socket Mode's app token", () => {
    expect(problemsOf({ ...hosted, SLACK_BOT_TOKEN: 'xoxb-1-2-3', FLEET_API_KEY: 'sk_live_abc', SLACK_APP_TOKEN: 'xapp-1-abc' })).toEqual([
      'SLACK_APP_TOKEN: not used in hosted mode, which receives Slack over HTTP: unset it',
      'SLACK_BOT_TOKEN: not used in hosted mode, where it is set per workspace by the install and /fleet connect: unset it',
      'FLEET_API_KEY: not used in hosted mode, where it is set per workspace by the install and /fleet connect: unset it',
    ]);
    const { SLACK_SIGNING_SECRET: _secret, ...unsigned } = hosted;
    expect(problemsOf({ ...unsigned, SLACK_APP_TOKEN: 'xapp-1-abc' })).toEqual([
      'SLACK_APP_TOKEN: not used in hosted mode, which receives Slack over HTTP: unset it',
      "SLACK_SIGNING_SECRET: required in hosted mode: the app's signing secret",
    ]);
    expect(problemsOf(unsigned)).toEqual(["SLACK_SIGNING_SECRET: required in HTTP mode (when SLACK_APP_TOKEN is not set): the app's signing secret"]);
  });

  it('takes PUBLIC_URL over https, or http on the loopback only', () => {
    expect(loadConfig({ ...hosted, PUBLIC_URL: 'http://127.0.0.1:3000' }).hosting?.publicUrl).toBe('http://127.0.0.1:3000');
    expect(loadConfig({ ...hosted, PUBLIC_URL: 'http://localhost:3000/' }).hosting?.publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ ...hosted, PUBLIC_URL: 'https://example.com/fleet/' }).hosting?.publicUrl).toBe('https://example.com/fleet');
    for (const bad of ['http://fleet.example.com', 'fleet.example.com', 'https://example.com/?a=1', 'ftp://example.com']) {
      expect(problemsOf({ ...hosted, PUBLIC_URL: bad }), bad).toEqual([
        'PUBLIC_URL: expected an https URL of the app as Slack reaches it, such as https://fleet.example.com (http only for 127.0.0.1 or localhost)',
      ]);
    }
  });

  it('reads HOSTED_RETENTION_DAYS as a whole number from 1 to 3650', () => {
    expect(loadConfig({ ...hosted, HOSTED_RETENTION_DAYS: '90' }).hosting?.retentionDays).toBe(90);
    expect(problemsOf({ ...hosted, HOSTED_RETENTION_DAYS: '0' })).toEqual(['HOSTED_RETENTION_DAYS: expected a whole number from 1 to 3650']);
    expect(problemsOf({ ...hosted, HOSTED_RETENTION_DAYS: '3651' })).toEqual(['HOSTED_RETENTION_DAYS: expected a whole number from 1 to 3650']);
  });

  it('reads DATABASE_OWNER_URL, the role of the migrations, only beside DATABASE_URL', () => {
    expect(loadConfig({ ...hosted, DATABASE_OWNER_URL: 'postgres://owner@db:5432/fleet' }).store.ownerUrl).toBe('postgres://owner@db:5432/fleet');
    expect(loadConfig({ ...minimal, DATABASE_URL: 'postgres://a@db/f', DATABASE_OWNER_URL: 'postgres://o@db/f' }).store).toMatchObject({
      databaseUrl: 'postgres://a@db/f',
      ownerUrl: 'postgres://o@db/f',
    });
    expect(problemsOf({ ...minimal, DATABASE_OWNER_URL: 'postgres://o@db/f' })).toEqual([
      'DATABASE_OWNER_URL: set only with DATABASE_URL: the role that runs the migrations of that database',
    ]);
    expect(problemsOf({ ...hosted, DATABASE_OWNER_URL: 'mysql://o@db/f' })).toEqual(['DATABASE_OWNER_URL: expected a postgres:// connection URL']);
  });
});
