// The client bundle swaps two libraries that rjsf imports for small stand-ins and leaves some of
// rjsf's default fields and widgets out (ADR 017, tools/vite-plugin-slim-client.ts). That is only
// right while the forms need none of them: no UI schema asks for markdown, every `$ref` of a
// bundled form is a fragment of that form, and no UI schema or format reaches a left-out component.
import { describe, expect, it } from 'vitest';
import { getSchemaType, getWidget, type RJSFSchema, type Widget } from '@rjsf/utils';
import { FORM_PROVIDED_COMPONENTS, LEFT_OUT_COMPONENTS, LEFT_OUT_UTILITIES, REPLACED_COMPONENTS } from '../../tools/vite-plugin-slim-client';
import { widgets as engineWidgets, templates } from '../../src/engine/registry';
import { ENGINE_WIDGETS, REPLACED_RJSF_WIDGETS } from '../../src/engine/widget-names';
import { formParts } from '../../tools/form-parts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formNames, loadBundledForm } from '../../src/shared/validation/schema-files';
import fragmentUri from '../../src/engine/fragment-uri';
import { fullFormats as standInFormats } from '../../src/engine/date-format';
import { fullFormats } from 'ajv-formats/dist/formats';
import { FORMATS_MODULE } from '../../tools/vite-plugin-slim-client';
import { precompileValidators } from '../../tools/precompile';

/** Where rjsf's fields, widgets and templates are. */
const RJSF_COMPONENTS = 'node_modules/@rjsf/core/lib/components';

function* walk(value: unknown, path = ''): Generator<[string, string, unknown]> {
  if (!value || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value)) {
    yield [path, key, child];
    yield* walk(child, `${path}/${key}`);
  }
}

/** rjsf's registry names and the engine's, each with a placeholder component; getWidget then says
 *  which registry entry a widget name or format picks (it returns a cached wrapper of the entry). */
const DEFAULT_WIDGET_NAMES = ['AltDateWidget', 'AltDateTimeWidget', 'CheckboxWidget', 'CheckboxesWidget', 'ColorWidget', 'DateWidget', 'DateTimeWidget', 'EmailWidget', 'FileWidget', 'HiddenWidget', 'PasswordWidget', 'RadioWidget', 'RangeWidget', 'RatingWidget', 'SelectWidget', 'TextWidget', 'TextareaWidget', 'TimeWidget', 'UpDownWidget', 'URLWidget'];
const registry: Record<string, Widget> = Object.fromEntries([...DEFAULT_WIDGET_NAMES, ...Object.keys(engineWidgets)].map((key) => [key, () => null]));
const nameOf = new Map(Object.entries(registry).map(([key, widget]) => [getWidget({ type: 'string' }, widget), key]));

/** Every registry widget a name can pick, over the schema types rjsf maps widget names for. */
function registryWidgetsFor(name: string): string[] {
  return ['string', 'number', 'integer', 'boolean', 'array'].flatMap((type) => {
    try {
      return [nameOf.get(getWidget({ type } as RJSFSchema, name, registry)) ?? '?'];
    } catch {
      return []; // no widget of that name for that type
    }
  });
}

describe('the left-out rjsf components', () => {
  it('are real registry names (a renamed one would silently be bundled again)', () => {
    for (const name of LEFT_OUT_COMPONENTS) {
      // (TitleField and UnsupportedField are templates)
      const kind = ['fields', 'widgets', 'templates'].find((folder) => existsSync(join(RJSF_COMPONENTS, folder, `${name}.js`))) ?? '?';
      expect(existsSync(join(RJSF_COMPONENTS, kind, `${name}.js`)), name).toBe(true);
      expect(readFileSync(join(RJSF_COMPONENTS, kind, 'index.js'), 'utf8'), name).toContain(`from "./${name}.js"`);
    }
  });

  it('the left-out schema utilities are imported as ./<name>.js by rjsf’s other schema utilities', () => {
    for (const name of LEFT_OUT_UTILITIES) {
      expect(existsSync(join('node_modules/@rjsf/utils/lib/schema', `${name}.js`)), name).toBe(true);
      expect(readFileSync('node_modules/@rjsf/utils/lib/schema/index.js', 'utf8'), name).toContain(`from "./${name}.js"`);
    }
  });

  it('include the title template, which only rjsf’s left-out or replaced parts render (the engine renders its own titles)', () => {
    const renderers = ['fields', 'templates', 'widgets'].flatMap((folder) =>
      readdirSync(join(RJSF_COMPONENTS, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.js') && !file.endsWith('index.js') && readFileSync(join(RJSF_COMPONENTS, folder, file), 'utf8').includes('TitleFieldTemplate'))
        .map((file) => file.replace(/\.js$/, '')),
    );
    expect(renderers.length).toBeGreaterThan(0);
    const gone: readonly string[] = [...LEFT_OUT_COMPONENTS, ...REPLACED_COMPONENTS, ...FORM_PROVIDED_COMPONENTS];
    expect(renderers.filter((name) => !gone.includes(name) && !gone.includes(`${name}/index`))).toEqual([]);
    const engine = readdirSync('src/engine', { recursive: true, encoding: 'utf8' }).filter((file) => /\.tsx?$/.test(file));
    expect(engine.filter((file) => readFileSync(join('src/engine', file), 'utf8').includes('TitleField'))).toEqual([]);
  });

  it('include the widgets a file input or a time would pick, so the check below has teeth', () => {
    expect(registryWidgetsFor('file')).toContain('FileWidget');
    expect(registryWidgetsFor('time')).toContain('TimeWidget');
    expect(registryWidgetsFor('text')).not.toContain('FileWidget');
  });
});

describe.each(formNames())('form %s', (name) => {
  const { schema, uiSchema } = loadBundledForm(name);

  it('reaches none of the rjsf fields and widgets left out of the bundle', () => {
    const named = [...walk(uiSchema)].filter(([, key]) => key === 'ui:widget' || key === 'ui:field').map(([, , value]) => String(value));
    const formats = [...walk(schema)].filter(([, key, value]) => key === 'format' && typeof value === 'string').map(([, , value]) => String(value));
    const reached = new Set([...named, ...[...named, ...formats].flatMap(registryWidgetsFor)]);
    expect(LEFT_OUT_COMPONENTS.filter((component) => reached.has(component))).toEqual([]);
  });

  const rendered = () => [...walk(schema)].filter(([path]) => !/\/not(\/|$)/.test(path));

  it('has no number, integer or null field (rjsf’s NumberField and NullField are left out of the bundle)', () => {
    const types = rendered().filter(([, key]) => key === 'type').flatMap(([, , value]) => (Array.isArray(value) ? value : [value]));
    expect(types.filter((type) => ['number', 'integer', 'null'].includes(String(type)))).toEqual([]);
  });

  it('names the widget of every choice (rjsf’s SelectWidget and CheckboxesWidget are left out of the bundle)', () => {
    const defs = (schema.$defs ?? {}) as Record<string, Record<string, unknown>>;
    const resolve = (node: Record<string, unknown>): Record<string, unknown> => {
      const ref = typeof node.$ref === 'string' ? defs[node.$ref.replace('#/$defs/', '')] : undefined;
      return ref ? { ...resolve(ref), ...node } : node;
    };
    const isChoice = (node: Record<string, unknown>) => 'enum' in node || (typeof node.items === 'object' && node.items !== null && 'enum' in resolve(node.items as Record<string, unknown>));
    const choices = rendered()
      .filter(([, key, value]) => key === 'properties' && value && typeof value === 'object')
      .flatMap(([, , properties]) => Object.entries(properties as Record<string, Record<string, unknown>>))
      .filter(([, node]) => isChoice(resolve(node)))
      .map(([field]) => field);
    const unnamed = choices.filter((field) => typeof (uiSchema[field] as Record<string, unknown> | undefined)?.['ui:widget'] !== 'string');
    expect(unnamed).toEqual([]);
  });

  it('gives every field a type rjsf has a field for (rjsf’s FallbackField is left out of the bundle)', () => {
    // every property rjsf may render (the conditions' too; not what only the validator reads:
    // inside a `not` or an `if`), its $refs followed
    const defs = (schema.$defs ?? {}) as Record<string, Record<string, unknown>>;
    const resolve = (node: Record<string, unknown>): Record<string, unknown> => {
      const ref = typeof node.$ref === 'string' ? defs[node.$ref.replace('#/$defs/', '')] : undefined;
      return ref ? { ...resolve(ref), ...node } : node;
    };
    const fields = [...walk(schema)]
      .filter(([path, key, value]) => key === 'properties' && value && typeof value === 'object' && !/\/(not|if)(\/|$)/.test(path))
      .flatMap(([path, , properties]) => Object.entries(properties as Record<string, Record<string, unknown>>).map(([field, node]) => [`${path}/${field}`, resolve(node)] as const));
    expect(fields.length).toBeGreaterThan(0);
    const untyped = fields.filter(([, node]) => !['string', 'boolean', 'array', 'object'].includes(String(getSchemaType(node as RJSFSchema))));
    expect(untyped.map(([path]) => path)).toEqual([]);
  });

  it('has no $ref that comes back to itself (rjsf’s CyclicSchemaField is left out of the bundle)', () => {
    const defs = (schema.$defs ?? {}) as Record<string, unknown>;
    const refsOf = (value: unknown) => [...walk(value)].filter(([, key]) => key === '$ref').map(([, , ref]) => String(ref).replace('#/$defs/', ''));
    const cyclic = Object.keys(defs).filter((name) => {
      const seen = new Set<string>();
      const queue = refsOf(defs[name]);
      while (queue.length) {
        const next = queue.shift()!;
        if (next === name) return true;
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(...refsOf(defs[next]));
      }
      return false;
    });
    expect(cyclic).toEqual([]);
  });

  it('asks for no optional-data controls (rjsf’s OptionalDataControlsField is left out of the bundle)', () => {
    expect([...walk(uiSchema)].filter(([, key]) => key === 'enableOptionalDataFieldForType')).toEqual([]);
  });

  it('has no anyOf or oneOf (rjsf’s MultiSchemaField is left out of the bundle)', () => {
    // Inside a `not` (a refused pattern: "links, markup or emoji") nothing is rendered; rjsf
    // never reads `not`, only the validator does.
    const rendered = [...walk(schema)].filter(([path]) => !/\/not(\/|$)/.test(path));
    expect(rendered.filter(([, key]) => key === 'anyOf' || key === 'oneOf').map(([path, key]) => `${path}/${key}`)).toEqual([]);
  });

  it('asks for no markdown rendering (rjsf’s markdown-to-jsx is not bundled)', () => {
    const markdown = [...walk(uiSchema)].filter(([, key, value]) => /^(ui:)?enableMarkdownIn/.test(key) && value).map(([path, key]) => `${path}/${key}`);
    expect(markdown).toEqual([]);
  });

  it('has same-document $refs only and no $id (fast-uri is not bundled)', () => {
    const refs = [...walk(schema)].filter(([, key]) => key === '$ref').map(([, , value]) => String(value));
    expect(refs.filter((ref) => !ref.startsWith('#'))).toEqual([]);
    expect([...walk(schema)].filter(([, key]) => key === '$id')).toEqual([]);
    for (const ref of refs) expect(fragmentUri.resolve('#', ref)).toBe(ref);
  });
});

describe('the formats stand-in (src/engine/date-format.ts)', () => {
  const provided = Object.keys(standInFormats);

  it('has every format a form uses, and the forms use date only', () => {
    // (an errorMessage's `format` is the message of the keyword, not a format)
    const used = new Set(formNames().flatMap((name) => [...walk(loadBundledForm(name).schema)].filter(([path, key, value]) => key === 'format' && typeof value === 'string' && !path.endsWith('/errorMessage')).map(([, , value]) => String(value))));
    expect([...used].sort()).toEqual(['date']);
    expect([...used].filter((format) => !provided.includes(format))).toEqual([]);
    // and the validators import it from where the build redirects (so the check below has teeth)
    expect(precompileValidators(loadBundledForm('register-profile').schema)).toContain(`from "${FORMATS_MODULE}"`);
  });

  it.each(formNames())('form %s: its validators take from ajv-formats only the formats the stand-in has', (name) => {
    const code = precompileValidators(loadBundledForm(name).schema);
    const modules = [...code.matchAll(/import \* as (\w+) from "([^"]*ajv-formats[^"]*)"/g)];
    for (const [, , path] of modules) expect(path).toBe(FORMATS_MODULE);
    for (const [, local] of modules) {
      const taken = [...code.matchAll(new RegExp(`\\b${local}((?:\\.\\w+|\\[[^\\]]*\\])+)`, 'g'))].map((m) => m[1]);
      expect(taken.filter((access) => !provided.some((format) => access === `.fullFormats.${format}`))).toEqual([]);
    }
  });

  it('gives ajv-formats’ answers for date, valid and not', () => {
    const samples = ['', 'x', '2024-1-01', '2024-01-1', '20240101', ' 2024-01-01', '2024-01-01 ', '2024-01-01T00:00:00Z', '２０２４-01-01', '-2024-01-01', '2024/01/01', 'abcd-ef-gh'];
    for (const year of ['0000', '0004', '1800', '1899', '1900', '1996', '2000', '2023', '2024', '2100', '2400', '9999']) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) samples.push(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
      }
    }
    const real = fullFormats.date as { validate: (s: string) => boolean; compare: (a: string, b: string) => number | undefined };
    expect(samples.filter((sample) => standInFormats.date.validate(sample) !== real.validate(sample))).toEqual([]);
    const pairs = [['', '2024-01-01'], ['2024-01-01', '2024-01-01'], ['2024-01-02', '2024-01-01'], ['1999-12-31', '2000-01-01']];
    for (const [a, b] of pairs) expect([a, b, standInFormats.date.compare(a, b)]).toEqual([a, b, real.compare(a, b)]);
  });
});

describe('the fast-uri stand-in', () => {
  it('refuses what it cannot resolve instead of resolving it wrongly', () => {
    expect(() => fragmentUri.resolve('#', 'https://example.com/other.json#/x')).toThrow(/same-document/);
    expect(() => fragmentUri.equal('a', 'a')).toThrow(/same-document/);
  });
});

describe('the engine’s widget names', () => {
  it('each names a widget file, and the registry the tests use has them all', () => {
    for (const file of Object.values(ENGINE_WIDGETS)) expect(existsSync(join('src/engine/widgets', `${file}.tsx`)), file).toBe(true);
    expect(Object.keys(engineWidgets).sort()).toEqual(Object.keys(ENGINE_WIDGETS).sort());
  });
});

describe('rjsf’s parts the client bundle leaves to the engine and the form modules', () => {
  it('are real files of rjsf’s registry (a renamed one would silently be bundled again)', () => {
    for (const name of [...REPLACED_COMPONENTS, ...FORM_PROVIDED_COMPONENTS]) {
      const kind = name.endsWith('Field') ? 'fields' : name.endsWith('Widget') ? 'widgets' : 'templates';
      expect(existsSync(join(RJSF_COMPONENTS, kind, `${name}.js`)), name).toBe(true);
      expect(readFileSync(join(RJSF_COMPONENTS, kind, 'index.js'), 'utf8'), name).toContain(`from "./${name}.js"`);
    }
  });

  it('the replaced widgets are the engine’s, the replaced templates the engine theme’s', () => {
    expect(REPLACED_COMPONENTS.filter((name) => name.endsWith('Widget')).sort()).toEqual([...REPLACED_RJSF_WIDGETS].sort());
    // rjsf's registry names of the replaced template files
    const registryName: Record<string, string> = { ErrorList: 'ErrorListTemplate', 'FieldTemplate/index': 'FieldTemplate' };
    // WrapIfAdditionalTemplate: only rjsf's own FieldTemplate renders it
    const replacedTemplates = REPLACED_COMPONENTS.filter((name) => !name.endsWith('Widget') && name !== 'WrapIfAdditionalTemplate').map((name) => registryName[name] ?? name);
    expect(replacedTemplates.filter((name) => !(name in templates))).toEqual([]);
    const users = readdirSync(RJSF_COMPONENTS, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((file) => /getTemplate\('WrapIfAdditionalTemplate'/.test(readFileSync(file, 'utf8')));
    expect(users.map((file) => file.replace(/\\/g, '/').split('components/')[1])).toEqual(['templates/FieldTemplate/FieldTemplate.js']);
  });

  it('rjsf reaches its allOf merge only through ./shallowAllOfMerge.js in lib/schema, and the merge library only from there', () => {
    const lib = 'node_modules/@rjsf/utils/lib';
    const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.js') ? [join(dir, entry.name)] : []));
    const importers = files(lib).filter((file) => /from ['"][^'"]*shallowAllOfMerge/.test(readFileSync(file, 'utf8')));
    expect(importers.length).toBeGreaterThan(0);
    for (const file of importers) {
      expect(file, file).toMatch(/lib\/schema\/\w+\.js$/);
      expect([...readFileSync(file, 'utf8').matchAll(/from ['"]([^'"]*shallowAllOfMerge[^'"]*)['"]/g)].map((m) => m[1])).toEqual(['./shallowAllOfMerge.js']);
    }
    const mergeUsers = files(lib).filter((file) => /from ['"]@x0k\/json-schema-merge/.test(readFileSync(file, 'utf8')));
    expect(mergeUsers.map((file) => file.slice(lib.length + 1))).toEqual(['schema/shallowAllOfMerge.js']);
  });

  it('a schema with an array or an allOf asks for rjsf’s parts', () => {
    expect(formParts({ type: 'object', properties: { a: { type: 'string' } } }, {})).toEqual({ widgets: [], arrays: false, booleans: false, allOf: false });
    expect(formParts({ type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } }, {})).toMatchObject({ arrays: true });
    expect(formParts({ type: 'object', allOf: [{ if: {}, then: {} }] }, {})).toMatchObject({ allOf: true });
    // what sits inside a `not` is never rendered
    expect(formParts({ type: 'string', not: { allOf: [{ pattern: 'x' }] } }, {})).toMatchObject({ allOf: false });
    expect(formParts({ type: 'object', properties: { agree: { type: 'boolean' } } }, {})).toMatchObject({ widgets: ['CheckboxWidget'], booleans: true });
    expect(formParts({ type: 'object', properties: { t: { type: 'string' } } }, { t: { 'ui:widget': 'textarea' } }).widgets).toEqual(['TextareaWidget']);
  });
});
