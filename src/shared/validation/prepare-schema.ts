// What every schema goes through once loaded, on both sides, before anyone validates with it or
// shows it: bundled (every $ref local), each message beside a $ref moved to the keyword it is for
// (ref-messages.ts), each required field given its message, and every
// `{limit}`/`{min}`/`{max}` in a message or title filled from the node it describes. The client's
// precompiled validators, the server and the UI therefore read the same finished texts.
import { bundleSchema, type JsonObject } from './schema-bundle.ts';
import { fillMessage } from './message-params.ts';
import { withMessagesBesideRefs } from './ref-messages.ts';
import { fieldNodes, finished, propertyBlocks, resolveNode, walkNodes } from './schema-nodes.ts';

/** Keyword-wide default messages (fields.json "x-default-messages"): JSON Forms' fallback, used
 *  where neither the form nor the field says anything of its own. */
export type DefaultMessages = Partial<Record<string, string>>;

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A required field's message: the form's own (errorMessage.required), else the field's
 *  (`x-required-message` on its node or the definition it refers to), else the default. */
function liftRequiredMessages(root: JsonObject, defaults: DefaultMessages): void {
  const fields = fieldNodes(root);
  for (const block of propertyBlocks(root)) {
    const required = (block.required as string[] | undefined) ?? [];
    if (required.length === 0) continue;
    const errorMessage = (block.errorMessage ??= {}) as JsonObject;
    if (typeof errorMessage !== 'object') continue;
    const messages = (errorMessage.required ??= {}) as Record<string, string>;
    for (const name of required) {
      if (messages[name]) continue;
      const node = fields[name] ?? {};
      const own = node['x-required-message'];
      const message = typeof own === 'string' ? fillMessage(own, node) : defaults.required;
      if (message) messages[name] = message;
    }
  }
}

function fillTexts(root: JsonObject): void {
  walkNodes(root, (node) => {
    const resolved = resolveNode(root, node);
    if (typeof node.title === 'string') node.title = fillMessage(node.title, resolved);
    if (typeof node['x-required-message'] === 'string') node['x-required-message'] = fillMessage(node['x-required-message'] as string, resolved);
    const messages = node.errorMessage;
    if (typeof messages === 'string') node.errorMessage = fillMessage(messages, node);
    else if (messages && typeof messages === 'object') {
      for (const [keyword, text] of Object.entries(messages as JsonObject)) {
        // A message is for the keyword beside it on this node, so that is where its numbers are.
        if (typeof text === 'string') (messages as JsonObject)[keyword] = fillMessage(text, node, keyword);
      }
    }
  });
}

/** A form or API schema ready to validate with and to show: bundled, messages filled. */
export function prepareSchema(root: JsonObject, shared: Record<string, JsonObject>, defaults: DefaultMessages = {}): JsonObject {
  const bundled = withMessagesBesideRefs(clone(bundleSchema(root, shared)));
  liftRequiredMessages(bundled, defaults);
  fillTexts(bundled);
  return finished(bundled);
}

const UI_TEXTS = ['ui:title', 'ui:placeholder', 'ui:help', 'ui:description'] as const;

/** A UI schema's titles, placeholders and help texts with `{limit}`/`{min}`/`{max}` filled from
 *  the (resolved) schema node of the field each one belongs to. */
export function prepareUiSchema(uiSchema: JsonObject, schema: JsonObject): JsonObject {
  const fields = fieldNodes(schema);
  const out = clone(uiSchema);
  for (const [name, ui] of Object.entries(out)) {
    if (name.startsWith('ui:') || !ui || typeof ui !== 'object') continue;
    const node = fields[name] ?? {};
    for (const key of UI_TEXTS) {
      const text = (ui as JsonObject)[key];
      if (typeof text === 'string') (ui as JsonObject)[key] = fillMessage(text, node);
    }
  }
  return out;
}
