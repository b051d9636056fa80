// Block Kit JSON to DOM, for messages and modals. Interactive elements report what the person did
// through `ctx.act`; stateful elements in modals register a reader in `ctx.inputs` for submission.
// A block or element this file does not know is shown as a visible placeholder naming its type.
import { escapeHtml, plainText, textObject } from './mrkdwn.js';

/** Creates an element: h('div', { class: 'x', onclick: fn }, child, 'text', …). */
export function h(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'html') node.innerHTML = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const html = (tag, attributes, markup) => h(tag, { ...attributes, html: markup });

export function placeholder(kind, type) {
  return h('div', { class: 'unknown', 'data-unknown-type': type ?? 'missing' }, `Unsupported ${kind}: ${type ?? '(no type)'}`);
}

/**
 * ctx: { names, act(kind, element, blockId, value), draft?: { get(key), set(key, value) }, errors?: {blockId: text},
 *        inputs?: [], people: [{id, realName}], conversations: [{id, name}], idPrefix }
 */
export function renderBlocks(blocks, ctx) {
  return (Array.isArray(blocks) ? blocks : []).map((block) => {
    const render = BLOCKS[block?.type];
    const node = render ? render(block, ctx) : placeholder('block', block?.type);
    node.dataset.blockId = block?.block_id ?? '';
    return node;
  });
}

const BLOCKS = {
  header: (block) => html('h3', { class: 'block header' }, plainText(block.text)),
  divider: () => h('hr', { class: 'block divider' }),
  section: (block, ctx) =>
    h(
      'div',
      { class: 'block section' },
      h(
        'div',
        { class: 'section-main' },
        block.text && html('div', { class: 'section-text' }, textObject(block.text, ctx.names)),
        Array.isArray(block.fields) &&
          h(
            'div',
            { class: 'fields' },
            block.fields.map((field) => html('div', { class: 'field' }, textObject(field, ctx.names))),
          ),
      ),
      block.accessory && h('div', { class: 'accessory' }, renderElement(block.accessory, block, ctx)),
    ),
  context: (block, ctx) =>
    h(
      'div',
      { class: 'block context' },
      (block.elements ?? []).map((element) =>
        element.type === 'image'
          ? imageChip(element)
          : ['mrkdwn', 'plain_text'].includes(element.type)
            ? html('span', {}, textObject(element, ctx.names))
            : placeholder('element', element.type),
      ),
    ),
  actions: (block, ctx) =>
    h(
      'div',
      { class: 'block actions' },
      (block.elements ?? []).map((element) => renderElement(element, block, ctx)),
    ),
  image: (block, ctx) =>
    h('div', { class: 'block image' }, block.title && html('div', { class: 'image-title' }, textObject(block.title, ctx.names)), imageChip(block)),
  input: (block, ctx) => inputBlock(block, ctx),
};

// Images are not fetched, so the page never contacts anything outside this computer.
function imageChip(element) {
  return h('span', { class: 'image-chip', title: element.image_url ?? '' }, `🖼 ${element.alt_text ?? 'image'}`);
}

function inputBlock(block, ctx) {
  const id = `${ctx.idPrefix ?? 'in'}-${block.block_id}`;
  const error = ctx.errors?.[block.block_id];
  return h(
    'div',
    { class: `block input${error ? ' has-error' : ''}` },
    h('label', { class: 'input-label', for: id }, html('span', {}, plainText(block.label)), block.optional && h('span', { class: 'optional' }, ' (optional)')),
    renderElement(block.element ?? {}, block, ctx, id),
    block.hint && html('div', { class: 'hint' }, plainText(block.hint)),
    error && h('div', { class: 'field-error', role: 'alert' }, error),
  );
}

function renderElement(element, block, ctx, id) {
  const render = ELEMENTS[element.type];
  if (!render) return placeholder('element', element.type);
  const node = render(element, block, ctx, id);
  node.dataset.actionId = element.action_id ?? '';
  return node;
}

const inModal = (ctx) => ctx.inputs !== undefined;
const draftKey = (block, element) => `${block.block_id}/${element.action_id}`;

/** Keeps what the person entered and registers how to read it on submit. */
function stateful(element, block, ctx, read) {
  if (!inModal(ctx)) return;
  ctx.inputs.push({ blockId: block.block_id, actionId: element.action_id, read });
}

function remember(element, block, ctx, value) {
  ctx.draft?.set(draftKey(block, element), value);
}

function recalled(element, block, ctx, initial) {
  const saved = ctx.draft?.get(draftKey(block, element));
  return saved === undefined ? initial : saved;
}

const ELEMENTS = {
  button: (element, block, ctx) =>
    h('button', {
      type: 'button',
      class: `btn${element.style ? ` ${element.style}` : ''}`,
      onclick: async () => {
        if (element.confirm && !(await confirmDialog(element.confirm, ctx))) return;
        if (element.url) window.open(element.url, '_blank', 'noopener');
        ctx.act('click', element, block.block_id, element.value);
      },
      html: plainText(element.text),
    }),
  static_select: (element, block, ctx, id) => selectElement(element, block, ctx, id, optionsOf(element)),
  external_select: externalSelect,
  users_select: (element, block, ctx, id) =>
    selectElement(
      element,
      block,
      ctx,
      id,
      ctx.people.map((p) => ({ value: p.id, text: { type: 'plain_text', text: p.realName } })),
      'initial_user',
    ),
  conversations_select: (element, block, ctx, id) => selectElement(element, block, ctx, id, conversationOptions(ctx), 'initial_conversation'),
  channels_select: (element, block, ctx, id) =>
    selectElement(
      element,
      block,
      ctx,
      id,
      conversationOptions(ctx).filter((o) => !o.value.startsWith('D')),
      'initial_channel',
    ),
  multi_static_select: (element, block, ctx, id) => multiSelect(element, block, ctx, id, optionsOf(element)),
  overflow: (element, block, ctx) =>
    h(
      'select',
      {
        class: 'overflow',
        'aria-label': 'More actions',
        onchange: (event) => ctx.act('select', element, block.block_id, event.target.value),
      },
      h('option', { value: '' }, '⋯'),
      optionsOf(element).map((option) => h('option', { value: option.value }, option.text?.text ?? option.value)),
    ),
  radio_buttons: (element, block, ctx, id) => choiceGroup(element, block, ctx, id, 'radio'),
  checkboxes: (element, block, ctx, id) => choiceGroup(element, block, ctx, id, 'checkbox'),
  plain_text_input: (element, block, ctx, id) => textInput(element, block, ctx, id, element.multiline ? 'textarea' : 'text'),
  email_text_input: (element, block, ctx, id) => textInput(element, block, ctx, id, 'email'),
  url_text_input: (element, block, ctx, id) => textInput(element, block, ctx, id, 'url'),
  number_input: (element, block, ctx, id) => textInput(element, block, ctx, id, 'text'),
  datepicker: (element, block, ctx, id) => pickerInput(element, block, ctx, id, 'date', 'initial_date'),
  timepicker: (element, block, ctx, id) => pickerInput(element, block, ctx, id, 'time', 'initial_time'),
  image: (element) => imageChip(element),
  file_input: (element, block, ctx, id) => fileInput(element, block, ctx, id),
};

/**
 * A file input as Slack's client has it: choosing a file uploads it at once (to the workspace's file
 * store), and the view's state then carries the file; submitting sends only its id.
 */
function fileInput(element, block, ctx, id) {
  let uploaded = recalled(element, block, ctx, undefined);
  const note = h('span', { class: 'file-note', role: 'status' }, uploaded ? 'File uploaded' : '');
  const input = h('input', {
    id,
    type: 'file',
    accept: (element.filetypes ?? []).map((type) => `.${type}`).join(','),
    onchange: async () => {
      const file = input.files?.[0];
      if (!file) return;
      note.textContent = `Uploading ${file.name}…`;
      const bytes = new Uint8Array(await file.arrayBuffer());
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      const answer = await ctx.upload(file.name, btoa(binary));
      uploaded = answer?.options?.[0]?.fileId;
      remember(element, block, ctx, uploaded);
      note.textContent = uploaded ? `${file.name} uploaded` : 'The upload failed';
    },
  });
  stateful(element, block, ctx, () => (uploaded ? [uploaded] : undefined));
  return h('div', { class: 'file-input' }, input, note);
}

function optionsOf(element) {
  const groups = Array.isArray(element.option_groups) ? element.option_groups.flatMap((group) => group.options ?? []) : [];
  return [...(element.options ?? []), ...groups];
}

function conversationOptions(ctx) {
  return ctx.conversations.map((c) => ({ value: c.id, text: { type: 'plain_text', text: c.dm ? c.name : `#${c.name}` } }));
}

function selectElement(element, block, ctx, id, options, initialKey = 'initial_option') {
  const initialRaw = element[initialKey];
  const initial = recalled(element, block, ctx, typeof initialRaw === 'string' ? initialRaw : initialRaw?.value);
  const select = h(
    'select',
    {
      id,
      class: 'select',
      onchange: () => {
        remember(element, block, ctx, select.value);
        ctx.act('select', element, block.block_id, select.value);
      },
    },
    h('option', { value: '', disabled: true, selected: initial === undefined }, element.placeholder?.text ?? 'Select an item'),
    options.map((option) => h('option', { value: option.value, selected: option.value === initial }, option.text?.text ?? option.value)),
  );
  stateful(element, block, ctx, () => (select.value === '' ? undefined : select.value));
  return select;
}

/**
 * An external select as Slack's client shows it: a type-ahead field whose text goes to the app as a
 * `block_suggestion` (from `min_query_length` characters, 3 unless set), and the options it answers.
 */
function externalSelect(element, block, ctx, id) {
  const initial = element.initial_option;
  let selected = recalled(element, block, ctx, initial?.value);
  let asked = 0;
  const list = h('ul', { class: 'suggestions', role: 'listbox', 'aria-label': 'Suggestions' });
  const choose = (option) => {
    selected = option.value;
    search.value = option.text?.text ?? option.value;
    list.replaceChildren();
    remember(element, block, ctx, selected);
    if (!inModal(ctx) || block.type !== 'input' || block.dispatch_action) ctx.act('select', element, block.block_id, option.value);
  };
  const suggest = async () => {
    const mine = ++asked;
    const answer = await ctx.act('suggest', element, block.block_id, search.value);
    // A slower answer to earlier typing must not replace the options of the latest.
    if (mine !== asked) return;
    list.replaceChildren(
      ...(answer?.options ?? []).map((option) =>
        h(
          'li',
          {
            role: 'option',
            class: 'suggestion',
            tabindex: 0,
            'data-value': option.value,
            onclick: () => choose(option),
            onkeydown: (event) => event.key === 'Enter' && choose(option),
          },
          option.text?.text ?? option.value,
        ),
      ),
    );
  };
  const search = h('input', {
    id,
    type: 'search',
    class: 'text-input',
    autocomplete: 'off',
    role: 'combobox',
    placeholder: element.placeholder?.text ?? 'Type to search',
    oninput: suggest,
    onfocus: () => (element.min_query_length === 0 ? suggest() : undefined),
  });
  search.value = selected === initial?.value ? (initial?.text?.text ?? '') : '';
  stateful(element, block, ctx, () => selected);
  return h('div', { class: 'external-select' }, search, list);
}

function multiSelect(element, block, ctx, id, options) {
  const initial = recalled(
    element,
    block,
    ctx,
    (element.initial_options ?? []).map((option) => option.value),
  );
  const select = h(
    'select',
    {
      id,
      class: 'select',
      multiple: true,
      onchange: () =>
        remember(
          element,
          block,
          ctx,
          [...select.selectedOptions].map((option) => option.value),
        ),
    },
    options.map((option) => h('option', { value: option.value, selected: initial.includes(option.value) }, option.text?.text ?? option.value)),
  );
  stateful(element, block, ctx, () => [...select.selectedOptions].map((option) => option.value));
  return select;
}

function choiceGroup(element, block, ctx, id, kind) {
  const initialOptions = kind === 'radio' ? [element.initial_option].filter(Boolean) : (element.initial_options ?? []);
  const initial = [
    recalled(
      element,
      block,
      ctx,
      initialOptions.map((option) => option.value),
    ),
  ].flat();
  const boxes = [];
  const group = h(
    'div',
    { class: 'choices', id, role: kind === 'radio' ? 'radiogroup' : 'group' },
    (element.options ?? []).map((option) => {
      const box = h('input', {
        type: kind,
        name: id,
        value: option.value,
        checked: initial.includes(option.value),
        onchange: () => {
          const picked = boxes.filter((b) => b.checked).map((b) => b.value);
          remember(element, block, ctx, kind === 'radio' ? picked[0] : picked);
          if (!inModal(ctx) || block.type !== 'input' || block.dispatch_action) ctx.act('select', element, block.block_id, option.value);
        },
      });
      boxes.push(box);
      return h('label', { class: 'choice' }, box, ' ', h('span', { html: textObject(option.text, ctx.names) }));
    }),
  );
  stateful(element, block, ctx, () => {
    const picked = boxes.filter((b) => b.checked).map((b) => b.value);
    return kind === 'radio' ? picked[0] : picked;
  });
  return group;
}

function textInput(element, block, ctx, id, type) {
  const value = recalled(element, block, ctx, element.initial_value ?? '');
  const attributes = {
    id,
    class: 'text-input',
    placeholder: element.placeholder?.text,
    maxlength: element.max_length,
    oninput: () => remember(element, block, ctx, input.value),
    onkeydown: (event) => {
      // Slack dispatches a text input's action on Enter when its block asks for actions.
      if (event.key === 'Enter' && type !== 'textarea' && block.dispatch_action) ctx.act('select', element, block.block_id, input.value);
    },
  };
  const input = type === 'textarea' ? h('textarea', { ...attributes, rows: 3 }) : h('input', { ...attributes, type });
  if (element.type === 'number_input') input.setAttribute('inputmode', element.is_decimal_allowed ? 'decimal' : 'numeric');
  input.value = value;
  stateful(element, block, ctx, () => input.value);
  return input;
}

function pickerInput(element, block, ctx, id, type, initialKey) {
  const input = h('input', {
    id,
    type,
    class: 'text-input',
    onchange: () => {
      remember(element, block, ctx, input.value);
      if (!inModal(ctx) || block.type !== 'input' || block.dispatch_action) ctx.act('select', element, block.block_id, input.value);
    },
  });
  input.value = recalled(element, block, ctx, element[initialKey] ?? '');
  stateful(element, block, ctx, () => (input.value === '' ? undefined : input.value));
  return input;
}

/** A button's `confirm` object as Slack's client shows it: a small dialog over everything. */
export function confirmDialog(confirm, ctx) {
  return new Promise((resolve) => {
    // Escape answers the dialog (as Cancel) and goes no further: the modal under it stays open.
    const onKey = (event) => {
      if (event.key !== 'Escape') return;
      event.stopImmediatePropagation();
      close(false);
    };
    const close = (answer) => {
      document.removeEventListener('keydown', onKey, true);
      overlay.remove();
      resolve(answer);
    };
    document.addEventListener('keydown', onKey, true);
    const overlay = h(
      'div',
      { class: 'overlay confirm-overlay' },
      h(
        'div',
        { class: 'dialog', role: 'dialog', 'aria-label': confirm.title?.text ?? 'Are you sure?' },
        h('h3', { html: plainText(confirm.title ?? { text: 'Are you sure?' }) }),
        h('div', { class: 'dialog-text', html: textObject(confirm.text, ctx.names) }),
        h(
          'div',
          { class: 'dialog-buttons' },
          h('button', { type: 'button', class: 'btn', onclick: () => close(false), html: escapeHtml(confirm.deny?.text ?? 'Cancel') }),
          h('button', {
            type: 'button',
            class: `btn ${confirm.style === 'danger' ? 'danger' : 'primary'}`,
            onclick: () => close(true),
            html: escapeHtml(confirm.confirm?.text ?? 'Yes'),
          }),
        ),
      ),
    );
    document.body.append(overlay);
  });
}
