/**
 * The few pages a person installing the app sees in their browser: the "Add to Slack" page, the
 * success page and the failure page. Static HTML; anything interpolated is escaped.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}</style>',
    `</head><body>${body}</body></html>`,
  ].join('\n');
}

/** GET /slack/install: the link to Slack's authorize page, with the scopes and the state. */
export function installPage(authorizeUrl: string): string {
  return page(
    'Add Fleet Treasury to Slack',
    '<h1>Fleet Treasury</h1>' +
      '<p>Balances, transactions, payouts and a live feed of your Fleet account, in Slack.</p>' +
      `<p><a href="${escapeHtml(authorizeUrl)}"><img alt="Add to Slack" height="40" width="139" ` +
      'src="https://platform.slack-edge.com/img/add_to_slack.png" srcset="https://platform.slack-edge.com/img/add_to_slack.png 1x, ' +
      'https://platform.slack-edge.com/img/add_to_slack@2x.png 2x"></a></p>',
  );
}

/** After a successful install: what to do next in Slack. */
export function installedPage(workspaceName: string | undefined): string {
  const where = workspaceName ? ` in ${escapeHtml(workspaceName)}` : '';
  return page(
    'Fleet Treasury is installed',
    `<h1>Fleet Treasury is installed${where}</h1>` +
      '<p>Next, in Slack, run <code>/fleet connect</code> to connect your Fleet account. Until then the app has nothing to show.</p>' +
      '<p>You can close this page.</p>',
  );
}

/** Why an install did not finish, in words for the installer; never the error itself. */
export type InstallFailure = 'cancelled' | 'expired' | 'refused';

const FAILURES: Record<InstallFailure, string> = {
  cancelled: 'The install was cancelled in Slack.',
  expired: 'This install link has expired or was opened in another browser.',
  refused: 'Slack did not confirm the install.',
};

export function installFailedPage(failure: InstallFailure, installUrl: string): string {
  return page(
    'Fleet Treasury was not installed',
    `<h1>Fleet Treasury was not installed</h1><p>${FAILURES[failure]}</p>` + `<p><a href="${escapeHtml(installUrl)}">Start the install again</a>.</p>`,
  );
}
