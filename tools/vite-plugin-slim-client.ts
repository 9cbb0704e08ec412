// Keeps code that no screen runs out of the client bundle (ADR 017, ADR 029): rjsf's imports of
// three libraries resolve to small stand-ins (only rjsf's own imports: anything else that imports
// them gets the real package), and so does the form modules' import of ajv-formats' formats, rjsf's default registry leaves out the fields and widgets no form
// can reach and the templates and widgets the engine replaces, and the parts only some forms need
// (the engine's stand-in for ArrayField, BooleanField, the allOf merge) come with those forms' modules instead
// (tools/vite-plugin-forms.ts); a build takes React Router's production build with its unused
// components tree-shaken.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const stand = (file: string) => fileURLToPath(new URL(`../src/engine/${file}`, import.meta.url));

/** What the precompiled validators import their formats from (tools/precompile.ts). */
export const FORMATS_MODULE = 'ajv-formats/dist/formats.js';

/** [imported id, importer must be inside this package (or be this module), stand-in]. */
const REDIRECTS: Array<[string, string, string]> = [
  // rjsf renders through markdown-to-jsx only when a UI schema enables markdown; none does.
  ['markdown-to-jsx/react', '/@rjsf/core/', stand('PlainMarkdown.tsx')],
  // rjsf resolves $ref URIs with fast-uri; bundled forms have same-document refs only.
  ['fast-uri', '/@rjsf/utils/', stand('fragment-uri.ts')],
  // rjsf's deepEquals is fast-equals' general comparator (about 2 KB gzip); it compares plain data.
  ['fast-equals', '/@rjsf/utils/', stand('deep-equals.ts')],
  // A form module's precompiled validators take their formats from ajv-formats' one CommonJS
  // file of every format (about 3 KB gzip); the forms use `date` only, which the stand-in is.
  [FORMATS_MODULE, '\0virtual:form/', stand('date-format.ts')],
];

/** rjsf's default fields and widgets that no form here reaches: no UI schema names them
 *  (ui:field, ui:widget) and no schema has a format that picks them (tests/contract/
 *  client-stand-ins.test.ts holds both for every form, and that no schema has anyOf or oneOf). Each file's place in rjsf's registry
 *  (`@rjsf/core/lib/components/{fields,widgets}/index.js`) gets a component that throws, so a
 *  form that starts to need one fails loudly in development tests, never renders wrongly. */
export const LEFT_OUT_COMPONENTS = [
  // ui:field "LayoutGridField" and the two it renders
  'LayoutGridField',
  'LayoutHeaderField',
  'LayoutMultiSchemaField',
  // the AnyOfField / OneOfField of a schema with anyOf or oneOf
  'MultiSchemaField',
  // ui:widget alt-date, alt-datetime, color, file / format data-url, range, RatingWidget, updown,
  // format time, format date-time
  'AltDateWidget',
  'AltDateTimeWidget',
  'ColorWidget',
  'FileWidget',
  'RangeWidget',
  'RatingWidget',
  'UpDownWidget',
  'TimeWidget',
  'DateTimeWidget',
  // format email, format uri; a select of an enum or a multiple choice without its ui:widget
  // (every form's choices name theirs)
  'EmailWidget',
  'URLWidget',
  'SelectWidget',
  'CheckboxesWidget',
  // a schema of type number, integer or null
  'NumberField',
  'NullField',
  // a field whose schema has no type rjsf has a field for (its type selector, or the
  // unsupported-field notice)
  'FallbackField',
  // a $ref that refers to itself
  'CyclicSchemaField',
  'CyclicSchemaExpandTemplate',
  // the optional-data controls of ui:enableOptionalDataFieldForType
  'OptionalDataControlsField',
  'OptionalDataControlsTemplate',
  // the notice SchemaField renders for a schema whose type has no field (every field has one)
  'UnsupportedField',
  // the title rjsf's object and array templates and its fallback and layout fields render (the
  // engine's ObjectFieldTemplate renders its own legend; the others are left out or replaced)
  'TitleField',
] as const;

/** rjsf's schema utilities for anyOf and oneOf (no form has one), which its others import. */
export const LEFT_OUT_UTILITIES = ['getClosestMatchingOption', 'getFirstMatchingOption'] as const;

/** rjsf's defaults the engine always replaces (src/engine/theme.ts, and the widgets of
 *  src/engine/widget-names.ts, which a form's module brings wherever the form reaches them). */
export const REPLACED_COMPONENTS = [
  'BaseInputTemplate',
  'ErrorList',
  'FieldHelpTemplate',
  'ObjectFieldTemplate',
  'FieldTemplate/index',
  // only rjsf's own FieldTemplate renders it
  'WrapIfAdditionalTemplate',
  'CheckboxWidget',
  'HiddenWidget',
  'RadioWidget',
  'TextareaWidget',
] as const;

/** rjsf's parts left to the form modules (tools/form-parts.ts): BooleanField, which a form with a
 *  boolean brings; ArrayField, whose place a form with an array fills with the engine's stand-in
 *  (src/engine/MultipleChoiceArrayField.tsx), so that its array templates and buttons (the submit
 *  button is the engine's) are in no form's module. */
export const FORM_PROVIDED_COMPONENTS = [
  'ArrayField',
  'ArrayFieldDescriptionTemplate',
  'ArrayFieldItemButtonsTemplate',
  'ArrayFieldItemTemplate',
  'ArrayFieldTemplate',
  'ArrayFieldTitleTemplate',
  'ButtonTemplates/index',
  'BooleanField',
] as const;

/** The button set rjsf's templates make (ButtonTemplates/index.js), none of them in the bundle. */
const BUTTONS = ['SubmitButton', 'AddButton', 'CopyButton', 'MoveDownButton', 'MoveUpButton', 'RemoveButton', 'ClearButton'];

const REGISTRY_INDEX = /\/@rjsf\/core\/lib\/components\/(fields|widgets|templates)\/index\.js$/;
const LEFT_OUT_PREFIX = '\0member-site-left-out:';
/** rjsf's allOf merge, as its schema utilities import it; a form module brings the real one. */
const ALL_OF_MERGE = './shallowAllOfMerge.js';
const SCHEMA_UTILITY = /\/@rjsf\/utils\/lib\/schema\/\w+\.js$/;

/** Every registry entry the bundle leaves out (in development, only the ones no form reaches). */
const LEFT_OUT_IN_BUILD: readonly string[] = [...LEFT_OUT_COMPONENTS, ...REPLACED_COMPONENTS, ...FORM_PROVIDED_COMPONENTS];

// React Router 7's package exports point at its development build (dev warnings, ~20 KB more)
// under every condition; its production build sits beside it.
const routerDist = join(dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production');
const PRODUCTION_ALIASES = [
  { find: /^react-router$/, replacement: join(routerDist, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: join(routerDist, 'dom-export.mjs') },
];

/** React Router's production build, where its components are made (the file name is hashed). */
const ROUTER_CHUNK = /\/react-router\/dist\/production\/chunk-[\w-]+\.mjs$/;

/** React Router makes its components and contexts at the top of its module
 *  (`var NavLink = React10.forwardRef(…)`, then `NavLink.displayName = "NavLink"`). A call the
 *  bundler cannot see into and a property set on its result both count as side effects, so
 *  <Form>, <NavLink>, useSubmit and what they use stayed in the bundle though no screen imports
 *  them (about 2 KB gzip). Marked pure, with the development-only names dropped, what is unused
 *  tree-shakes away; what is used is untouched. */
export function pureRouterComponents(code: string): string {
  return code
    .replace(/= (React\d*\.(?:forwardRef|createContext|memo)\()/g, '= /* @__PURE__ */ $1')
    .replace(/^[A-Za-z_$][\w$]*\.displayName = "[^"]*";$/gm, '');
}

export function slimClientPlugin(): Plugin {
  let build = false;
  return {
    name: 'member-site-slim-client',
    enforce: 'pre',
    config(_, { command }) {
      build = command === 'build';
      return build ? { resolve: { alias: PRODUCTION_ALIASES } } : undefined;
    },
    resolveId(source, importer) {
      const from = importer?.replace(/\\/g, '/') ?? '';
      const name = /^\.\/([\w/]+)\.js$/.exec(source)?.[1];
      if (name && REGISTRY_INDEX.test(from)) {
        // The replaced and the form-provided parts only in a build, where the form modules bring
        // theirs (in development the forms plugin leaves rjsf whole).
        if ((LEFT_OUT_COMPONENTS as readonly string[]).includes(name) || (build && LEFT_OUT_IN_BUILD.includes(name))) return LEFT_OUT_PREFIX + name;
      }
      if (build && SCHEMA_UTILITY.test(from)) {
        if (source === ALL_OF_MERGE) return stand('all-of-merge.ts');
        if (name && (LEFT_OUT_UTILITIES as readonly string[]).includes(name)) return LEFT_OUT_PREFIX + name;
      }
      const hit = REDIRECTS.find(([id, from]) => source === id && importer?.replace(/\\/g, '/').includes(from));
      return hit?.[2];
    },
    transform(code, id) {
      if (!ROUTER_CHUNK.test(id.replace(/\\/g, '/'))) return undefined;
      // map: null keeps the module's source map: lines stay where they were.
      return { code: pureRouterComponents(code), map: null };
    },
    load(id) {
      if (!id.startsWith(LEFT_OUT_PREFIX)) return undefined;
      const name = id.slice(LEFT_OUT_PREFIX.length);
      const leftOut = `import { leftOut } from ${JSON.stringify(stand('left-out.ts'))};\n`;
      if (name === 'ButtonTemplates/index') return `${leftOut}export default () => ({ ${BUTTONS.map((button) => `${button}: leftOut(${JSON.stringify(button)})`).join(', ')} });`;
      return `${leftOut}export default leftOut(${JSON.stringify(name)});`;
    },
  };
}
