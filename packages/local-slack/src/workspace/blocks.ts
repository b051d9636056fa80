/** Reading Block Kit JSON the way Slack's client does: generated ids, and finding interactive elements. */

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An interactive element with the block that holds it. */
export interface FoundElement {
  blockId: string;
  block: Json;
  element: Json;
}

/** Elements a person can act on: actions blocks, section accessories, and input blocks. */
export function interactiveElements(blocks: unknown): FoundElement[] {
  if (!Array.isArray(blocks)) return [];
  const found: FoundElement[] = [];
  for (const block of blocks) {
    if (!isObject(block)) continue;
    const blockId = typeof block.block_id === 'string' ? block.block_id : '';
    const candidates: unknown[] = [];
    if (block.type === 'actions' && Array.isArray(block.elements)) candidates.push(...(block.elements as unknown[]));
    if (block.type === 'section' && block.accessory !== undefined) candidates.push(block.accessory);
    if (block.type === 'input' && block.element !== undefined) candidates.push(block.element);
    for (const element of candidates) {
      if (isObject(element)) found.push({ blockId, block, element });
    }
  }
  return found;
}

/**
 * Slack fills in `block_id` (and `action_id` on interactive elements) when the app leaves them out;
 * payloads and `state.values` are keyed by them, so the fake does the same on a copy.
 */
export function withGeneratedIds(blocks: unknown, nextId: () => string): unknown[] {
  if (!Array.isArray(blocks)) return [];
  return blocks.map((original: unknown) => {
    if (!isObject(original)) return original;
    const block: Json = structuredClone(original);
    if (typeof block.block_id !== 'string') block.block_id = nextId();
    const ensureActionId = (element: unknown) => {
      if (isObject(element) && typeof element.type === 'string' && typeof element.action_id !== 'string') {
        element.action_id = nextId();
      }
    };
    if (Array.isArray(block.elements) && block.type === 'actions') block.elements.forEach(ensureActionId);
    if (block.type === 'section') ensureActionId(block.accessory);
    if (block.type === 'input') ensureActionId(block.element);
    return block;
  });
}

/** All options of a select-like element, including those inside option groups. */
export function optionsOf(element: Json): Json[] {
  const options: Json[] = [];
  if (Array.isArray(element.options)) options.push(...element.options.filter(isObject));
  if (Array.isArray(element.option_groups)) {
    for (const group of element.option_groups) {
      if (isObject(group) && Array.isArray(group.options)) options.push(...group.options.filter(isObject));
    }
  }
  return options;
}

export function findOption(element: Json, value: string): Json | undefined {
  return optionsOf(element).find((option) => option.value === value);
}
