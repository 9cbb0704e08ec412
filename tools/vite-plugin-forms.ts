// `import form from 'virtual:form/<name>'` gives a screen its bundled schema, UI schema and
// precompiled validators, built from schemas/ at build time. In dev a change to any schema
// file invalidates the forms and reloads the page, so edits show at once.
// `virtual:form-index` maps every form name to a lazy import of its module (the dev-only form
// review page at /user/_forms lists them all; nothing in the production bundle imports it).
// Each form module also brings the parts of the engine and of rjsf its form needs beyond what
// every form uses (tools/form-parts.ts): the engine widgets it reaches, and in a build rjsf's
// ArrayField with the array templates and buttons, its BooleanField and its allOf merge, which the
// client bundle otherwise leaves out (tools/vite-plugin-slim-client.ts, ADR 029).
// `virtual:form-data/<name>` is the form's schema and UI schema alone, for a screen that reads
// them without rendering the form (the member info view): it carries no validator and no part.
import { fileURLToPath } from 'node:url';
import type { Plugin, ViteDevServer } from 'vite';
import { formNames, loadBundledForm, SCHEMAS_DIR } from '../src/shared/validation/schema-files.ts';
import { ENGINE_WIDGETS } from '../src/engine/widget-names.ts';
import { precompileValidators } from './precompile.ts';
import { NOT_FOR_THE_BROWSER, withoutComments, withoutKeys } from './vite-plugin-client-json.ts';
import { formParts } from './form-parts.ts';

const PREFIX = 'virtual:form/';
const RESOLVED = '\0' + PREFIX;
const DATA_PREFIX = 'virtual:form-data/';
const RESOLVED_DATA = '\0' + DATA_PREFIX;
const INDEX = 'virtual:form-index';
const RESOLVED_INDEX = '\0' + INDEX;

const engineFile = (file: string) => fileURLToPath(new URL(`../src/engine/${file}`, import.meta.url));
/** rjsf's array parts: the field, and the templates only it renders (and its buttons). */
const ARRAY_TEMPLATES = ['ArrayFieldDescriptionTemplate', 'ArrayFieldItemButtonsTemplate', 'ArrayFieldItemTemplate', 'ArrayFieldTemplate', 'ArrayFieldTitleTemplate'];

/** The import lines and exports (widgets, fields, templates) of a form's parts. `build`: rjsf's
 *  parts too (in development the whole of rjsf is there). */
export function partsCode(schema: object, uiSchema: object, build: boolean): string {
  const parts = formParts(schema, uiSchema);
  const lines = parts.widgets.map((name, i) => `import W${i} from ${JSON.stringify(engineFile(`widgets/${ENGINE_WIDGETS[name]}.tsx`))};`);
  lines.push(`export const widgets = { ${parts.widgets.map((name, i) => `${JSON.stringify(name)}: W${i}`).join(', ')} };`);
  const fields: string[] = [];
  const templates: string[] = [];
  if (build && parts.arrays) {
    lines.push(
      "import ArrayField from '@rjsf/core/lib/components/fields/ArrayField.js';",
      ...ARRAY_TEMPLATES.map((name) => `import ${name} from '@rjsf/core/lib/components/templates/${name}.js';`),
      "import buttonTemplates from '@rjsf/core/lib/components/templates/ButtonTemplates/index.js';",
    );
    fields.push('ArrayField');
    templates.push(...ARRAY_TEMPLATES, 'ButtonTemplates: buttonTemplates()');
  }
  if (build && parts.booleans) {
    lines.push("import BooleanField from '@rjsf/core/lib/components/fields/BooleanField.js';");
    fields.push('BooleanField');
  }
  lines.push(`export const fields = { ${fields.join(', ')} };`, `export const templates = { ${templates.join(', ')} };`);
  if (build && parts.allOf) {
    lines.push(
      "import shallowAllOfMerge from '@rjsf/utils/lib/schema/shallowAllOfMerge.js';",
      `import { provideAllOfMerge } from ${JSON.stringify(engineFile('all-of-merge.ts'))};`,
      'provideAllOfMerge(shallowAllOfMerge);',
    );
  }
  return lines.join('\n');
}

/** The name of the constant in the validators' code (ajv's standalone output) that holds the root
 *  schema, rjsf's `$id` aside: the form module exports that object as the form's schema instead
 *  of a second copy of it (a few KB gzip on the registration and edit forms, ADR 029). */
export function rootSchemaConstant(code: string, schema: object): string | undefined {
  const wanted = JSON.stringify(schema);
  for (const match of code.matchAll(/const (schema\d+) = \{/g)) {
    const start = match.index + match[0].length - 1;
    // the object literal's end: ajv writes the schema as JSON
    let depth = 0;
    let end = start;
    for (let inString = false; end < code.length; end++) {
      const c = code[end];
      if (inString) {
        if (c === '\\') end++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) break;
    }
    try {
      const { $id: _id, ...rest } = JSON.parse(code.slice(start, end + 1)) as Record<string, unknown>;
      if (JSON.stringify(rest) === wanted) return match[1];
    } catch {
      // not JSON: not the schema
    }
  }
  return undefined;
}

export function formsPlugin(): Plugin {
  let server: ViteDevServer | undefined;
  let build = false;
  return {
    name: 'member-site-forms',
    configResolved(config) {
      build = config.command === 'build';
    },
    resolveId(id) {
      if (id === INDEX) return RESOLVED_INDEX;
      if (id.startsWith(DATA_PREFIX)) return RESOLVED_DATA + id.slice(DATA_PREFIX.length);
      return id.startsWith(PREFIX) ? RESOLVED + id.slice(PREFIX.length) : undefined;
    },
    load(id) {
      if (id === RESOLVED_INDEX) {
        const entries = formNames().map((name) => `  ${JSON.stringify(name)}: () => import(${JSON.stringify(PREFIX + name)}),`);
        return ['// autogenerated from schemas/forms by tools/vite-plugin-forms.ts', 'export const forms = {', ...entries, '};'].join('\n');
      }
      const data = id.startsWith(RESOLVED_DATA);
      if (!data && !id.startsWith(RESOLVED)) return undefined;
      const name = id.slice((data ? RESOLVED_DATA : RESOLVED).length);
      // What the browser gets has no `$comment`s (notes for the schemas' editors), and a build
      // nothing else it never reads (ADR 029); the validators are compiled from the same schema,
      // so rjsf finds them by its hash. In development the review page fills samples from the
      // examples.
      const bundled = loadBundledForm(name);
      const { schema, uiSchema } = build ? withoutKeys(bundled, NOT_FOR_THE_BROWSER) : withoutComments(bundled);
      if (data) {
        return [
          '// autogenerated from schemas/ by tools/vite-plugin-forms.ts, do not edit',
          `export const schema = ${JSON.stringify(schema)};`,
          `export const uiSchema = ${JSON.stringify(uiSchema)};`,
          `export const name = ${JSON.stringify(name)};`,
        ].join('\n');
      }
      const validators = precompileValidators(schema);
      const root = rootSchemaConstant(validators, schema);
      return [
        '// autogenerated from schemas/ by tools/vite-plugin-forms.ts, do not edit',
        validators,
        partsCode(schema, uiSchema, build),
        root ? `const { $id: __rootId, ...__schema } = ${root};\nexport const schema = __schema;` : `export const schema = ${JSON.stringify(schema)};`,
        `export const uiSchema = ${JSON.stringify(uiSchema)};`,
        `export const name = ${JSON.stringify(name)};`,
      ].join('\n');
    },
    configureServer(dev) {
      server = dev;
      dev.watcher.add(SCHEMAS_DIR);
      dev.watcher.on('change', (file) => {
        if (!file.startsWith(SCHEMAS_DIR) || !server) return;
        for (const mod of server.moduleGraph.idToModuleMap.values()) {
          if (mod.id?.startsWith(RESOLVED) || mod.id?.startsWith(RESOLVED_DATA) || mod.id === RESOLVED_INDEX) server.moduleGraph.invalidateModule(mod);
        }
        server.ws.send({ type: 'full-reload' });
      });
    },
  };
}
