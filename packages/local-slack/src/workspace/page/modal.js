// A modal as Slack draws it: the top view of a person's stack, with Back and Close, its blocks with their
// inputs and errors, and a footer whose submit sends the inputs' values.
import { h, renderBlocks } from './blocks.js';

/** The modal of `views` (the stack, its top last); `drafts` keeps what was typed, `call` sends to /workspace/*. */
export function buildModal({ views, drafts, names, people, conversations, call }) {
  const top = views.at(-1);
  const view = top.view;
  const inputs = [];
  const values = () => {
    const collected = {};
    for (const input of inputs) {
      const value = input.read();
      if (value !== undefined) (collected[input.blockId] ??= {})[input.actionId] = value;
    }
    return collected;
  };
  const ctx = {
    names,
    people,
    conversations,
    inputs,
    idPrefix: top.id,
    errors: top.errors ?? {},
    draft: { get: (key) => drafts.get(key), set: (key, value) => drafts.set(key, value) },
    upload: (name, content) => call('upload', { name, content }),
    act: (kind, element, blockId, value) =>
      call(kind, { actionId: element.action_id, blockId, value, viewId: top.id, ...(kind === 'select' ? { values: values() } : {}) }),
  };
  const blocks = renderBlocks(view.blocks, ctx);
  const knownBlocks = new Set((view.blocks ?? []).filter((block) => block.type === 'input').map((block) => block.block_id));
  const strayErrors = Object.entries(top.errors ?? {}).filter(([blockId]) => !knownBlocks.has(blockId));
  const submit = async (event) => {
    event.preventDefault();
    const button = event.submitter ?? document.querySelector('#modal-submit');
    if (button) button.disabled = true;
    try {
      await call('submit', { viewId: top.id, values: values() });
    } finally {
      if (button) button.disabled = false;
    }
  };
  return h(
    'div',
    { class: 'overlay' },
    h(
      'form',
      {
        class: 'modal',
        id: 'modal',
        role: 'dialog',
        'aria-label': view.title?.text ?? 'Modal',
        'data-view-id': top.id,
        'data-callback-id': view.callback_id ?? '',
        onsubmit: submit,
        novalidate: true,
      },
      h(
        'header',
        { class: 'modal-header' },
        views.length > 1 &&
          h('button', { type: 'button', class: 'icon', title: 'Back', 'aria-label': 'Back', onclick: () => call('close', { viewId: top.id }) }, '←'),
        h('h2', { class: 'modal-title' }, view.title?.text ?? ''),
        views.length > 1 && h('span', { class: 'stack-depth' }, `${views.length} of ${views.length}`),
        h('button', { type: 'button', class: 'icon', title: 'Close', 'aria-label': 'Close', onclick: () => call('close', { viewId: views[0].id }) }, '✕'),
      ),
      h(
        'div',
        { class: 'modal-body' },
        strayErrors.map(([blockId, text]) =>
          h('div', { class: 'field-error', role: 'alert' }, `${text} (error for block “${blockId}”, which is not an input block: real Slack would refuse it)`),
        ),
        ...blocks,
      ),
      h(
        'footer',
        { class: 'modal-footer' },
        h('button', { type: 'button', class: 'btn', onclick: () => call('close', { viewId: top.id }) }, view.close?.text ?? 'Cancel'),
        view.submit && h('button', { type: 'submit', class: 'btn primary', id: 'modal-submit' }, view.submit.text),
      ),
    ),
  );
}
