/**
 * The browser side of OAuth v2 at `/oauth/v2/authorize`: Slack's consent page for a chosen workspace
 * and person (no sign-in here: the page's own pickers say who is signed in, a `team` and a `user`
 * parameter), its Allow and Cancel, and Slack's error page when the request itself is wrong.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './api-endpoint.js';
import type { AuthorizeRequest, InstallTarget, OAuthServer } from './oauth.js';

export interface ConsentContext {
  oauth: OAuthServer;
  appName: string;
  /** The workspaces, in picker order. */
  targets: Array<InstallTarget & { teamId: string }>;
}

const ERROR_TEXT: Record<string, string> = {
  invalid_client_id: 'Invalid client_id parameter',
  invalid_scope: 'Invalid permissions requested',
  bad_redirect_uri: 'redirect_uri did not match any configured URIs.',
};

// No script and no outside resource on Slack's pages here; the forms may post and redirect anywhere (form-action unset).
const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'";

/** GET shows the consent page, POST is the person's Allow or Cancel. */
export async function serveAuthorize(context: ConsentContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const params = request.method === 'POST' ? new URLSearchParams(await readBody(request)) : new URL(request.url ?? '/', 'http://localhost').searchParams;
  const checked = context.oauth.checkAuthorize(params);
  if (!checked.ok) return sendHtml(response, 400, errorPage(checked.error, params.get('redirect_uri')));
  const target = context.targets.find((candidate) => candidate.teamId === params.get('team')) ?? context.targets[0];
  if (!target) return sendHtml(response, 400, errorPage('invalid_team', null));
  const users = target.slack.directory().users;
  const user = users.find((candidate) => candidate.id === params.get('user')) ?? users[0];
  if (request.method !== 'POST' || !user) return sendHtml(response, 200, consentPage(context, checked.request, target, user?.id ?? ''));
  const back = new URL(checked.request.redirectUri);
  if (params.get('decision') === 'allow') {
    // Checked again here: a person the page refused cannot post Allow by hand.
    if (!context.oauth.mayInstall(target.teamId, user.id)) return sendHtml(response, 403, consentPage(context, checked.request, target, user.id));
    back.searchParams.set('code', context.oauth.issueCode(checked.request, target.teamId, user.id));
  } else {
    back.searchParams.set('error', 'access_denied');
  }
  back.searchParams.set('state', checked.request.state);
  response.writeHead(302, { location: back.toString(), 'cache-control': 'no-store' }).end();
}

function consentPage(context: ConsentContext, request: AuthorizeRequest, target: InstallTarget & { teamId: string }, userId: string): string {
  const app = escape(context.appName);
  const team = escape(target.teamName);
  const hidden = (fields: Record<string, string>) =>
    Object.entries(fields)
      .map(([name, value]) => `<input type="hidden" name="${name}" value="${escape(value)}">`)
      .join('');
  const request_ = {
    client_id: request.clientId,
    scope: request.scopes.join(','),
    state: request.state,
    ...(request.redirectNamed ? { redirect_uri: request.redirectUri } : {}),
  };
  const option = (value: string, label: string, selected: boolean) =>
    `<option value="${escape(value)}"${selected ? ' selected' : ''}>${escape(label)}</option>`;
  const workspaces = context.targets.map((candidate) => option(candidate.teamId, candidate.teamName, candidate.teamId === target.teamId)).join('');
  const people = target.slack
    .directory()
    .users.map((user) => option(user.id, `${user.realName ?? user.name}${user.isOwner ? ' (owner)' : user.isAdmin ? ' (admin)' : ''}`, user.id === userId))
    .join('');
  const allowed = context.oauth.mayInstall(target.teamId, userId);
  const decision = `<form method="post" action="/oauth/v2/authorize" class="decision">${hidden({ ...request_, team: target.teamId, user: userId })}
      <button type="submit" name="decision" value="deny" id="cancel">Cancel</button>
      ${allowed ? '<button type="submit" name="decision" value="allow" id="allow" class="primary">Allow</button>' : ''}</form>`;
  const body = `
    <form method="get" action="/oauth/v2/authorize" class="who">${hidden(request_)}
      <label>Workspace <select name="team" id="team">${workspaces}</select></label>
      <label>Signed in as <select name="user" id="user">${people}</select></label>
      <button type="submit" id="switch">Switch</button>
    </form>
    <h1>${app} is requesting permission to access the ${team} Slack workspace</h1>
    <h2>What will ${app} be able to do?</h2>
    <ul class="scopes">${request.scopes.map((scope) => `<li><code>${escape(scope)}</code></li>`).join('')}</ul>
    ${allowed ? '' : `<p class="approval" role="alert">Only admins and owners of ${team} can install apps: an admin must approve ${app} before it is installed.</p>`}
    ${decision}`;
  return page(`${app} · Add to Slack`, body);
}

function errorPage(error: string, redirectUri: string | null): string {
  const detail = error === 'bad_redirect_uri' && redirectUri ? ` Passed URI: ${escape(redirectUri)}` : '';
  return page(
    'Slack · OAuth error',
    `<h1>Something went wrong when authorizing this app.</h1><p>Try going back and authorizing again. If problems persist, contact support for help.</p><p class="error">Error details: <code id="error">${escape(error)}</code> ${escape(ERROR_TEXT[error] ?? '')}${detail}</p>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title><style>
body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;color:#1d1c1d}
.who{display:flex;gap:1rem;align-items:end;padding-bottom:1rem;border-bottom:1px solid #ddd}
.who label{display:flex;flex-direction:column;font-size:.85rem}.decision{display:flex;gap:1rem;justify-content:end;margin-top:2rem}
button{padding:.5rem 1.2rem;border:1px solid #bbb;border-radius:4px;background:#fff;font-weight:600}
.primary{background:#007a5a;color:#fff;border-color:#007a5a}.approval,.error{background:#fdf3e1;padding:.75rem;border-radius:4px}
</style></head><body>${body}</body></html>`;
}

function sendHtml(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': CSP,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(html);
}

function escape(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
