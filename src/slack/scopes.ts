/**
 * The bot scopes the app asks for: the "Add to Slack" link of hosted mode requests exactly these,
 * and `test/manifest.test.ts` checks that manifest.yml lists the same.
 */
export const BOT_SCOPES = ['commands', 'chat:write', 'users:read', 'usergroups:read', 'files:write', 'im:write', 'files:read'] as const;
