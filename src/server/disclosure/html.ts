// The disclosure as a readable file: one HTML page, made from the same sections the screen shows
// (src/shared/disclosure-view.ts over schemas/api/user-disclosure.json), self-contained (no
// script, no outside file), so it opens and prints anywhere and says exactly what the JSON holds.
import type { JsonObject } from '../../shared/validation/schema-bundle';
import { disclosureSections, valueText, type DisclosureViewOptions } from '../../shared/disclosure-view';
import messages from '../../../messages/ja.json';
import { format } from '../../shared/format';
import type { Disclosure } from './document';
import { escapeHtml } from '../mail/mailer';


const STYLE = `body{font-family:sans-serif;line-height:1.7;color:#222;max-width:48rem;margin:2rem auto;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.2rem;border-bottom:2px solid #036;margin-top:2rem}
dl{display:grid;grid-template-columns:minmax(8rem,14rem) 1fr;gap:.25rem 1rem;margin:0 0 1rem;padding:.5rem;border:1px solid #ccc}
dt{font-weight:bold}dd{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}`;

export function disclosureHtml(schema: JsonObject, doc: Disclosure, options: DisclosureViewOptions): string {
  const text = messages.disclosure;
  const generated = (schema.properties as Record<string, JsonObject>).generated_at;
  const sections = disclosureSections(schema, doc, options)
    .map((section) => {
      const items = section.items.length
        ? section.items
            .map((item) => `<dl>${item.rows.map((row) => `<dt>${escapeHtml(row.label)}</dt><dd>${escapeHtml(row.value)}</dd>`).join('')}</dl>`)
            .join('\n')
        : `<p>${escapeHtml(text.empty)}</p>`;
      return `<section><h2>${escapeHtml(section.title)}</h2>\n<p>${escapeHtml(section.description)}</p>\n${items}</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>${escapeHtml(text.fileTitle)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(text.fileTitle)}</h1>
<p>${escapeHtml(format(text.fileMade, { label: String(generated?.title ?? ''), value: valueText(generated ?? {}, doc.generated_at, options) }))}</p>
<p>${escapeHtml(text.fileLead)}</p>
${sections}
</body></html>
`;
}
