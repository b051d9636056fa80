/**
 * Which workspace a verified Slack request belongs to, read from its body as Bolt reads it: an
 * event's first authorization (or `team_id`), a command's `team_id`, an interaction's `team.id`
 * (a view's installing team first), or its user's `team_id` when an org-wide install sends no team.
 */
type Body = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const record = (value: unknown): Body | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : undefined);

export function teamOfRequest(body: Body): string | undefined {
  if (body.type === 'event_callback') {
    const first = Array.isArray(body.authorizations) ? record(body.authorizations[0]) : undefined;
    return text(first?.team_id) ?? text(body.team_id);
  }
  // A slash command: form fields, no `type`.
  if (typeof body.command === 'string') return text(body.team_id);
  const view = record(body.view);
  return text(view?.app_installed_team_id) ?? text(record(body.team)?.id) ?? text(view?.team_id) ?? text(record(body.user)?.team_id) ?? text(body.team_id);
}

/** What the front door does itself with an event: the app removed from a workspace, or its bot token revoked. */
export type UninstallKind = 'app_uninstalled' | 'bot_tokens_revoked' | 'other_tokens_revoked';

export function uninstallOf(body: Body): UninstallKind | undefined {
  if (body.type !== 'event_callback') return undefined;
  const event = record(body.event);
  if (event?.type === 'app_uninstalled') return 'app_uninstalled';
  if (event?.type !== 'tokens_revoked') return undefined;
  const bot = record(event.tokens)?.bot;
  return Array.isArray(bot) && bot.length > 0 ? 'bot_tokens_revoked' : 'other_tokens_revoked';
}
