/**
 * Block Kit limits that real Slack enforces (it answers `invalid_blocks` and friends), checked on any
 * message or view so that a test or the demo notices a breach the fake would otherwise accept.
 * Each function returns readable violations, empty when everything fits.
 */

type Json = Record<string, unknown>;

const MESSAGE_BLOCKS = 50;
const VIEW_BLOCKS = 100;
const MESSAGE_TEXT = 40_000;
// Slack's cumulative limit is undocumented (msg_blocks_too_long, bolt-js issues 2509 and 2867);
// 12,000 characters of text across all blocks is the figure Slack staff gave, so stay under it.
const CUMULATIVE_BLOCK_TEXT = 12_000;
const ID = 255;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `text` of a text object (`{type, text}`), or of a bare string. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isObject(value) && typeof value.text === 'string') return value.text;
  return undefined;
}

class Checker {
  readonly violations: string[] = [];

  maxLength(value: unknown, limit: number, where: string): void {
    const text = textOf(value);
    if (text !== undefined && text.length > limit) {
      this.violations.push(`${where} is ${text.length} chars (limit ${limit})`);
    }
  }

  maxItems(value: unknown, limit: number, where: string): void {
    if (Array.isArray(value) && value.length > limit) {
      this.violations.push(`${where} has ${value.length} items (limit ${limit})`);
    }
  }

  blocks(blocks: unknown, limit: number, where: string): void {
    if (!Array.isArray(blocks)) return;
    if (blocks.length > limit) this.violations.push(`${where} has ${blocks.length} blocks (limit ${limit})`);
    blocks.forEach((block, index) => this.block(block, `${where}[${index}]`));
  }

  private block(block: unknown, where: string): void {
    if (!isObject(block)) return;
    this.maxLength(block.block_id, ID, `${where}.block_id`);
    switch (block.type) {
      case 'section':
        this.maxLength(block.text, 3000, `${where} (section) text`);
        this.maxItems(block.fields, 10, `${where} (section) fields`);
        if (Array.isArray(block.fields)) {
          block.fields.forEach((field, index) => this.maxLength(field, 2000, `${where}.fields[${index}]`));
        }
        if (block.accessory !== undefined) this.element(block.accessory, `${where}.accessory`);
        break;
      case 'header':
        this.maxLength(block.text, 150, `${where} (header) text`);
        break;
      case 'actions':
        this.maxItems(block.elements, 25, `${where} (actions) elements`);
        this.elements(block.elements, where);
        break;
      case 'context':
        this.maxItems(block.elements, 10, `${where} (context) elements`);
        if (Array.isArray(block.elements)) {
          block.elements.forEach((element, index) => this.maxLength(element, 3000, `${where}.elements[${index}] text`));
        }
        break;
      case 'input':
        this.maxLength(block.label, 2000, `${where} (input) label`);
        this.maxLength(block.hint, 2000, `${where} (input) hint`);
        if (block.element !== undefined) this.element(block.element, `${where}.element`);
        break;
      case 'image':
        this.maxLength(block.alt_text, 2000, `${where} (image) alt_text`);
        this.maxLength(block.image_url, 3000, `${where} (image) image_url`);
        break;
      default:
        break;
    }
  }

  private elements(elements: unknown, where: string): void {
    if (!Array.isArray(elements)) return;
    elements.forEach((element, index) => this.element(element, `${where}.elements[${index}]`));
  }

  private element(element: unknown, where: string): void {
    if (!isObject(element)) return;
    const type = typeof element.type === 'string' ? element.type : 'element';
    this.maxLength(element.action_id, ID, `${where}.action_id`);
    this.maxLength(element.placeholder, 150, `${where} (${type}) placeholder`);
    if (type === 'button') {
      this.maxLength(element.text, 75, `${where} (button) text`);
      this.maxLength(element.value, 2000, `${where} (button) value`);
      this.maxLength(element.url, 3000, `${where} (button) url`);
    }
    if (type === 'overflow') this.maxItems(element.options, 5, `${where} (overflow) options`);
    else if (type === 'checkboxes' || type === 'radio_buttons') this.maxItems(element.options, 10, `${where} (${type}) options`);
    else this.maxItems(element.options, 100, `${where} (${type}) options`);
    this.options(element.options, where);
    if (Array.isArray(element.option_groups)) {
      this.maxItems(element.option_groups, 100, `${where} (${type}) option_groups`);
      element.option_groups.forEach((group, index) => {
        if (isObject(group)) this.options(group.options, `${where}.option_groups[${index}]`);
      });
    }
    if (isObject(element.confirm)) {
      this.maxLength(element.confirm.title, 100, `${where}.confirm title`);
      this.maxLength(element.confirm.text, 300, `${where}.confirm text`);
      this.maxLength(element.confirm.confirm, 30, `${where}.confirm confirm`);
      this.maxLength(element.confirm.deny, 30, `${where}.confirm deny`);
    }
  }

  private options(options: unknown, where: string): void {
    if (!Array.isArray(options)) return;
    options.forEach((option, index) => {
      if (!isObject(option)) return;
      this.maxLength(option.text, 75, `${where}.options[${index}] text`);
      // Slack documents 75 or 150 depending on the page; 75 is safe under either.
      this.maxLength(option.value, 75, `${where}.options[${index}] value`);
      this.maxLength(option.description, 75, `${where}.options[${index}] description`);
    });
  }
}

/** Sums every `text` string inside the blocks: what Slack's cumulative block limit appears to count. */
function cumulativeText(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + cumulativeText(item), 0);
  if (!isObject(value)) return 0;
  let total = 0;
  for (const [key, child] of Object.entries(value)) {
    if (key === 'text' && typeof child === 'string') total += child.length;
    else total += cumulativeText(child);
  }
  return total;
}

export function checkMessage(blocks: unknown, text?: string): string[] {
  const checker = new Checker();
  checker.blocks(blocks, MESSAGE_BLOCKS, 'message blocks');
  if (text !== undefined) checker.maxLength(text, MESSAGE_TEXT, 'message text');
  const total = cumulativeText(blocks);
  if (total > CUMULATIVE_BLOCK_TEXT) {
    checker.violations.push(`message blocks hold ${total} chars of text in all (about ${CUMULATIVE_BLOCK_TEXT} makes Slack answer msg_blocks_too_long)`);
  }
  return checker.violations;
}

export function checkView(view: Record<string, unknown>): string[] {
  const checker = new Checker();
  const kind = typeof view.type === 'string' ? view.type : 'view';
  checker.blocks(view.blocks, VIEW_BLOCKS, `${kind} blocks`);
  checker.maxLength(view.title, 24, `${kind} title`);
  checker.maxLength(view.submit, 24, `${kind} submit`);
  checker.maxLength(view.close, 24, `${kind} close`);
  checker.maxLength(view.callback_id, ID, `${kind} callback_id`);
  checker.maxLength(view.external_id, ID, `${kind} external_id`);
  checker.maxLength(view.private_metadata, 3000, `${kind} private_metadata`);
  return checker.violations;
}
