// The member's disclosure (GET /v1/user/disclosure, issue 37) as a person reads it: one section
// per group of schemas/api/user-disclosure.json, under the group's title and description, each
// item's properties under their titles. The schema that describes the JSON file labels the view,
// so the screen and the HTML file say what the file holds, in its order, and nothing else
// (docs/decisions/040). A group with "x-rows" holds rows labelled by themselves (the member
// record, as /user/info shows it); "x-shown": false keeps a property in the file only.
import type { JsonObject } from './validation/schema-bundle.ts';

export interface DisclosureRow {
  label: string;
  value: string;
}

export interface DisclosureItem {
  rows: DisclosureRow[];
}

export interface DisclosureSection {
  /** The group's name in the JSON file. */
  key: string;
  title: string;
  description: string;
  items: DisclosureItem[];
}

export interface DisclosureViewOptions {
  formatDateTime: (value: string) => string;
  /** What an empty value shows (messages.common.dash), and what joins a list. */
  dash: string;
  listSeparator: string;
}

type Node = JsonObject & { title?: string; description?: string; enum?: unknown[]; enumNames?: string[]; items?: JsonObject; properties?: Record<string, JsonObject> };

/** A value as the member reads it: a code by its name, a time as a Japanese date and time, a list
 *  joined, an empty value as the dash. */
export function valueText(node: Node, value: unknown, options: DisclosureViewOptions): string {
  if (value === undefined || value === null || value === '') return options.dash;
  if (Array.isArray(value)) return value.length > 0 ? value.map(String).join(options.listSeparator) : options.dash;
  if (Array.isArray(node.enum) && Array.isArray(node.enumNames)) {
    const name = node.enumNames[node.enum.indexOf(value)];
    if (name) return name;
  }
  if (node['x-format'] === 'date-time' && typeof value === 'string') return options.formatDateTime(value);
  return String(value);
}

/** The disclosure `doc` as sections, in the schema's order. */
export function disclosureSections(schema: JsonObject, doc: Record<string, unknown>, options: DisclosureViewOptions): DisclosureSection[] {
  const groups = Object.entries((schema.properties ?? {}) as Record<string, Node>).filter(([, node]) => node.type === 'array' && typeof node.title === 'string');
  return groups.map(([key, group]) => {
    const list = Array.isArray(doc[key]) ? (doc[key] as Array<Record<string, unknown>>) : [];
    const properties = Object.entries((group.items?.properties ?? {}) as Record<string, Node>).filter(([, node]) => node['x-shown'] !== false);
    const items: DisclosureItem[] =
      group['x-rows'] === true
        ? list.length > 0
          ? [{ rows: list.map((row) => ({ label: String(row.label ?? ''), value: valueText({}, row.value, options) })) }]
          : []
        : list.map((entry) => ({ rows: properties.map(([name, node]) => ({ label: node.title ?? name, value: valueText(node, entry[name], options) })) }));
    return { key, title: group.title ?? key, description: group.description ?? '', items };
  });
}
