import { describe, expect, it } from 'vitest';
import { teamOfRequest, uninstallOf } from '../../src/hosting/team-of-request.js';

describe('teamOfRequest', () => {
  it("reads an event's first authorization before its team_id, as Bolt does", () => {
    expect(teamOfRequest({ type: 'event_callback', team_id: 'T0HOST', authorizations: [{ team_id: 'T0MINE' }] })).toBe('T0MINE');
    expect(teamOfRequest({ type: 'event_callback', team_id: 'T0HOST', authorizations: [] })).toBe('T0HOST');
  });

  it("reads a command's team_id, an interaction's team, and the user's team when an org-wide install sends none", () => {
    expect(teamOfRequest({ command: '/fleet', team_id: 'T0CMD' })).toBe('T0CMD');
    expect(teamOfRequest({ type: 'block_suggestion', team: { id: 'T0OPT' }, user: { team_id: 'T0USER' } })).toBe('T0OPT');
    expect(teamOfRequest({ type: 'block_actions', team: null, user: { id: 'U1', team_id: 'T0USER' } })).toBe('T0USER');
    expect(teamOfRequest({ type: 'view_closed', team: null, user: { team_id: 'T0USER' }, view: { team_id: 'T0VIEW' } })).toBe('T0VIEW');
    expect(teamOfRequest({ type: 'view_submission', team: { id: 'T0TEAM' }, view: { app_installed_team_id: 'T0INSTALLED' } })).toBe('T0INSTALLED');
  });

  it('names no workspace for a body without one', () => {
    expect(teamOfRequest({ type: 'event_callback', event: { type: 'app_home_opened' } })).toBeUndefined();
    expect(teamOfRequest({ type: 'block_actions', team: { id: '' } })).toBeUndefined();
  });
});

describe('uninstallOf', () => {
  it('tells the removal of the app and the revocation of its bot token from every other event', () => {
    expect(uninstallOf({ type: 'event_callback', event: { type: 'app_uninstalled' } })).toBe('app_uninstalled');
    expect(uninstallOf({ type: 'event_callback', event: { type: 'tokens_revoked', tokens: { bot: ['U0BOT'] } } })).toBe('bot_tokens_revoked');
    expect(uninstallOf({ type: 'event_callback', event: { type: 'tokens_revoked', tokens: { oauth: ['U1'], bot: [] } } })).toBe('other_tokens_revoked');
    expect(uninstallOf({ type: 'event_callback', event: { type: 'app_home_opened' } })).toBeUndefined();
    expect(uninstallOf({ type: 'block_actions' })).toBeUndefined();
  });
});
