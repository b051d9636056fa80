// The local workspace page: one person at a time sees their conversations, messages, modals and the
// app's Home tab, runs slash commands and acts on Block Kit. Every action goes to /workspace/*, where the local
// workspace sends it to the app in Slack's wire format; Server-Sent Events say when to refresh.
import { h, renderBlocks } from './blocks.js';
import { buildModal } from './modal.js';
import { mrkdwn } from './mrkdwn.js';
import { renderWorkflows } from './workflows.js';

const page = {
  as: new URLSearchParams(location.search).get('as') ?? '',
  channel: decodeURIComponent(location.hash.slice(1)) || '',
  data: undefined,
  /** Entered values of open views, by view id, then `block_id/action_id`. */
  drafts: new Map(),
  /** Messages seen per channel, for unread counts. */
  seen: {},
  rendered: { messages: '', modal: '', home: '' },
};

/** The pseudo-conversations of the sidebar that show the app's Home tab, and Workflow Builder's runs. */
const HOME = 'home';
const WORKFLOWS = 'workflows';
const special = (channel) => channel === HOME || channel === WORKFLOWS;

const $ = (selector) => document.querySelector(selector);
const names = () => ({ users: page.data.userNames, channels: page.data.channelNames, locale: page.data.me?.locale });

async function call(action, body) {
  const response = await fetch(`/workspace/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ as: page.as, ...body }),
  });
  const answer = await response.json();
  if (!answer.ok) toast(answer.error);
  else if (answer.status !== 200 && answer.status !== 0) toast(`Fleet Treasury answered HTTP ${answer.status}: Slack would show “dispatch_failed”.`);
  else if (answer.status === 0 && answer.elapsedMs > 0) toast('Fleet Treasury did not answer in 3 seconds: Slack would show “operation_timeout”.');
  return answer;
}

function toast(text) {
  const note = h('div', { class: 'toast', role: 'status' }, text);
  $('#toasts').append(note);
  setTimeout(() => note.remove(), 6000);
}

let refreshing;
let again = false;
async function refresh() {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      again = false;
      const as = page.as;
      const response = await fetch(`/workspace/state?as=${encodeURIComponent(as)}`);
      const data = await response.json();
      // The person was switched while this was on its way: it shows someone else, so ask again.
      if (as !== page.as) {
        again = true;
        continue;
      }
      page.data = data;
      // An empty or unknown `as` gets the first person.
      if (data.me) page.as = data.me.id;
      render();
    } while (again);
  })().finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

function render() {
  const data = page.data;
  if (!data.me) return;
  if (!special(page.channel) && !data.conversations.some((c) => c.id === page.channel)) page.channel = data.conversations[0]?.id ?? '';
  history.replaceState(null, '', `?as=${page.as}#${page.channel}`);
  const counts = Object.fromEntries(data.conversations.map((c) => [c.id, data.messages[c.id]?.length ?? 0]));
  page.seen[page.channel] = counts[page.channel];
  for (const [id, count] of Object.entries(counts)) page.seen[id] ??= count;
  renderSidebar(counts);
  renderViolations();
  renderMessages();
  renderHome();
  renderWorkflowPane();
  renderModal();
  document.body.dataset.ready = 'true';
}

function renderSidebar(counts) {
  const data = page.data;
  const switcher = $('#person');
  if (switcher.options.length === 0) {
    for (const person of data.people) switcher.append(h('option', { value: person.id }, person.realName));
  }
  switcher.value = page.as;
  renderWorkspacePicker(data.workspaces);
  $('#role').textContent = data.me.role;
  const entry = (conversation) => {
    const unread = counts[conversation.id] - (page.seen[conversation.id] ?? 0);
    return h(
      'li',
      {},
      h(
        'a',
        {
          href: `#${conversation.id}`,
          class: `${conversation.id === page.channel ? 'active' : ''}${unread > 0 ? ' unread' : ''}`,
          'data-conversation': conversation.id,
          onclick: (event) => {
            event.preventDefault();
            page.channel = conversation.id;
            render();
            $('#composer-input').focus();
          },
        },
        conversation.dm ? `● ${conversation.name}` : `# ${conversation.name}`,
        unread > 0 && h('span', { class: 'badge' }, String(unread)),
      ),
    );
  };
  $('#channels').replaceChildren(...data.conversations.filter((c) => !c.dm).map(entry));
  $('#dms').replaceChildren(...data.conversations.filter((c) => c.dm).map(entry));
  $('#apps').replaceChildren(
    h(
      'li',
      {},
      h(
        'a',
        {
          href: `#${HOME}`,
          class: page.channel === HOME ? 'active' : '',
          'data-conversation': HOME,
          onclick: (event) => {
            event.preventDefault();
            showHome();
          },
        },
        '⌂ Fleet Treasury · Home',
      ),
    ),
    h(
      'li',
      {},
      h(
        'a',
        {
          href: `#${WORKFLOWS}`,
          class: page.channel === WORKFLOWS ? 'active' : '',
          'data-conversation': WORKFLOWS,
          onclick: (event) => {
            event.preventDefault();
            page.channel = WORKFLOWS;
            render();
          },
        },
        '⚙ Workflows · Run workflow',
      ),
    ),
  );
  const samples = data.sampleFiles ?? [];
  $('#samples-title').hidden = samples.length === 0;
  $('#samples').replaceChildren(
    ...samples.map((file) =>
      h(
        'li',
        {},
        h(
          'a',
          { href: `/workspace/samples/${encodeURIComponent(file.name)}`, download: file.name, class: 'sample-file', title: file.description },
          `⬇ ${file.name}`,
        ),
        h('div', { class: 'sample-description' }, file.description),
      ),
    ),
  );
  const current = data.conversations.find((c) => c.id === page.channel);
  $('#channel-title').textContent =
    page.channel === HOME
      ? 'Fleet Treasury · Home'
      : page.channel === WORKFLOWS
        ? 'Workflows'
        : current
          ? current.dm
            ? current.name
            : `# ${current.name}`
          : '';
  $('#composer-input').placeholder = `Message ${current?.dm ? current.name : `#${current?.name ?? ''}`} — slash commands only, e.g. /fleet help`;
}

/** With several workspaces, a picker that opens another one's page (each workspace serves its own). */
function renderWorkspacePicker(workspaces) {
  const picker = $('#workspace');
  if (workspaces.length < 2 || picker.options.length > 0) return;
  for (const workspace of workspaces) picker.append(h('option', { value: workspace.url }, workspace.name));
  picker.value = workspaces.find((workspace) => workspace.current)?.url ?? '';
  picker.hidden = false;
  picker.addEventListener('change', () => location.assign(`${picker.value}/`));
}

function renderViolations() {
  const violations = page.data.violations;
  const banner = $('#violations');
  banner.hidden = violations.length === 0;
  banner.replaceChildren(
    h('strong', {}, `${violations.length} Block Kit limit violation${violations.length === 1 ? '' : 's'}: real Slack would refuse these.`),
    h(
      'ul',
      {},
      violations.slice(-10).map((line) => h('li', {}, line)),
    ),
  );
}

/** Opening the Home tab is what makes Slack send the app `app_home_opened`. */
function showHome() {
  page.channel = HOME;
  render();
  void call('openHome', {});
}

/** The Home tab as the app last published it for this person, or a note while it has not. */
function renderHome() {
  const onHome = page.channel === HOME;
  $('#home').hidden = !onHome;
  $('#messages').hidden = special(page.channel);
  $('#composer').hidden = special(page.channel);
  $('#hint').hidden = special(page.channel);
  const home = page.data.home;
  const signature = onHome ? `${page.as}|${home?.id ?? ''}|${home?.hash ?? ''}` : '';
  if (signature === page.rendered.home) return;
  page.rendered.home = signature;
  if (!onHome) return;
  if (!home) return $('#home').replaceChildren(h('p', { class: 'empty waiting-home' }, 'The app has not published a Home tab for you yet.'));
  const ctx = {
    names: names(),
    people: page.data.people,
    conversations: page.data.conversations,
    act: (kind, element, blockId, value) => call(kind, { actionId: element.action_id, blockId, value, viewId: home.id }),
  };
  $('#home').replaceChildren(h('div', { 'data-view-id': home.id }, ...renderBlocks(home.view.blocks, ctx)));
}

/** "Run workflow": the app's custom steps with their inputs, and the runs with how they completed. */
function renderWorkflowPane() {
  const onWorkflows = page.channel === WORKFLOWS;
  $('#workflows').hidden = !onWorkflows;
  const signature = onWorkflows ? JSON.stringify([page.as, page.data.workflowRuns]) : '';
  if (signature === page.rendered.workflows) return;
  page.rendered.workflows = signature;
  if (onWorkflows) renderWorkflows($('#workflows'), page.data, (callbackId, inputs) => call('runWorkflow', { callbackId, inputs }));
}

function renderMessages() {
  const messages = page.data.messages[page.channel] ?? [];
  const signature = `${page.as}|${page.channel}|${JSON.stringify(messages)}`;
  if (signature === page.rendered.messages) return;
  page.rendered.messages = signature;
  const list = $('#messages');
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  list.replaceChildren(...(messages.length === 0 ? [h('p', { class: 'empty' }, 'No messages yet. Try /fleet help below.')] : messages.map(renderMessage)));
  if (atBottom || page.channel !== list.dataset.channel) list.scrollTop = list.scrollHeight;
  list.dataset.channel = page.channel;
}

function renderMessage(message) {
  const data = page.data;
  const fromBot = message.userId === data.botUserId || message.botId !== undefined;
  const author = data.userNames[message.userId] ?? message.userId ?? 'unknown';
  const time = new Date(Number(message.ts.split('.')[0]) * 1000).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const ctx = {
    names: names(),
    people: data.people,
    conversations: data.conversations,
    act: (kind, element, blockId, value) => call(kind, { actionId: element.action_id, blockId, value, channel: message.channel, ts: message.ts }),
  };
  const body =
    message.blocks.length > 0 ? renderBlocks(message.blocks, ctx) : message.text ? [h('div', { class: 'text', html: mrkdwn(message.text, names()) })] : [];
  for (const file of message.files ?? []) body.push(renderFile(file));
  return h(
    'article',
    { class: `message${message.ephemeralTo ? ' ephemeral' : ''}`, 'data-ts': message.ts },
    h('div', { class: `avatar${fromBot ? ' bot' : ''}` }, fromBot ? 'FT' : author.slice(0, 1)),
    h(
      'div',
      { class: 'message-body' },
      h(
        'div',
        { class: 'meta' },
        h('strong', {}, author),
        fromBot && h('span', { class: 'app-badge' }, 'APP'),
        h('span', { class: 'time' }, time),
        message.edited && h('span', { class: 'edited' }, '(edited)'),
        message.threadTs && h('span', { class: 'thread' }, '↳ in thread'),
      ),
      message.ephemeralTo && h('div', { class: 'ephemeral-note' }, '👁 Only visible to you'),
      ...body,
    ),
  );
}

/** A shared file: its title, name and size, and a download link served by the workspace; a PNG shown as the image itself. */
function renderFile(file) {
  const href = `/workspace/files/${encodeURIComponent(file.id)}?as=${encodeURIComponent(page.as)}`;
  const size =
    file.size < 1024 ? `${file.size} B` : file.size < 1024 * 1024 ? `${(file.size / 1024).toFixed(1)} KB` : `${(file.size / 1024 / 1024).toFixed(1)} MB`;
  if (/\.png$/i.test(file.name)) {
    // Served by the workspace itself (the page's own address), as Slack shows an image inline.
    return h(
      'figure',
      { class: 'file-image', 'data-file-id': file.id },
      h('img', { src: `${href}&inline=1`, alt: file.title, loading: 'lazy' }),
      h(
        'figcaption',
        {},
        h('strong', {}, file.title),
        h('span', { class: 'file-detail' }, ` ${file.name} · ${size} `),
        h('a', { class: 'file-download', href, download: file.name }, 'Download'),
      ),
    );
  }
  return h(
    'div',
    { class: 'file', 'data-file-id': file.id },
    h('span', { class: 'file-icon' }, '📄'),
    h('div', { class: 'file-meta' }, h('strong', {}, file.title), h('span', { class: 'file-detail' }, `${file.name} · ${size}`)),
    h('a', { class: 'file-download', href, download: file.name }, 'Download'),
  );
}

function renderModal() {
  const views = page.data.views;
  const top = views.at(-1);
  const signature = top ? `${page.as}|${top.id}|${top.hash}|${JSON.stringify(top.errors ?? {})}|${views.length}` : '';
  if (signature === page.rendered.modal) return;
  page.rendered.modal = signature;
  const root = $('#modal-root');
  for (const id of page.drafts.keys()) if (!views.some((view) => view.id === id)) page.drafts.delete(id);
  if (!top) return root.replaceChildren();
  const drafts = page.drafts.get(top.id) ?? new Map();
  page.drafts.set(top.id, drafts);
  root.replaceChildren(buildModal({ views, drafts, names: names(), people: page.data.people, conversations: page.data.conversations, call }));
}

function bindComposer() {
  const form = $('#composer');
  const input = $('#composer-input');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (!text.startsWith('/')) {
      toast('This workspace only sends slash commands to the app: try /fleet help');
      return;
    }
    const answer = await call('command', { channel: page.channel, text });
    if (answer.ok) input.value = '';
  });
  $('#person').addEventListener('change', (event) => {
    page.as = event.target.value;
    page.seen = {};
    page.rendered = { messages: undefined, modal: undefined, home: undefined, workflows: undefined };
    void refresh().then(() => {
      if (page.channel === HOME) void call('openHome', {});
    });
  });
  // Escape closes the open modal as its ✕ does (the whole stack), as in Slack's client.
  document.addEventListener('keydown', (event) => {
    const top = page.data?.views.at(-1);
    if (event.key !== 'Escape' || !top || event.defaultPrevented) return;
    event.preventDefault();
    void call('close', { viewId: page.data.views[0].id });
  });
  window.addEventListener('hashchange', () => {
    const next = decodeURIComponent(location.hash.slice(1));
    if (next === page.channel) return;
    if (next === HOME) return showHome();
    if (next === WORKFLOWS) {
      page.channel = WORKFLOWS;
      return render();
    }
    page.channel = next;
    render();
  });
}

function listen() {
  const events = new EventSource('/workspace/events');
  let timer;
  events.onmessage = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), 30);
  };
  events.onopen = () => void refresh();
}

bindComposer();
await refresh();
if (page.channel === HOME) void call('openHome', {});
$('#hint').textContent = page.data.commandHint;
listen();
