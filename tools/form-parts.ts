// What of the form engine and of rjsf one form needs beyond what every form uses: the engine
// widgets its UI schema and its field types reach, the engine's stand-in for rjsf's ArrayField
// (src/engine/MultipleChoiceArrayField.tsx) for a schema with an array, its BooleanField for one with a boolean, and the engine's allOf
// merge for a schema with an `allOf`. The form's module
// (virtual:form/<name>, tools/vite-plugin-forms.ts) imports these, so a screen carries the parts
// of its own forms only (ADR 029). tests/contract/form-parts.test.ts renders every form with its
// parts alone.
import { getWidget, type RJSFSchema, type Widget } from '@rjsf/utils';
import { ENGINE_WIDGETS, type EngineWidgetName } from '../src/engine/widget-names.ts';

/** rjsf's default widget names (its registry), which a widget name or a format can pick. */
export const RJSF_WIDGET_NAMES = [
  'AltDateWidget',
  'AltDateTimeWidget',
  'CheckboxWidget',
  'CheckboxesWidget',
  'ColorWidget',
  'DateWidget',
  'DateTimeWidget',
  'EmailWidget',
  'FileWidget',
  'HiddenWidget',
  'PasswordWidget',
  'RadioWidget',
  'RangeWidget',
  'RatingWidget',
  'SelectWidget',
  'TextWidget',
  'TextareaWidget',
  'TimeWidget',
  'UpDownWidget',
  'URLWidget',
];

const TYPES = ['string', 'number', 'integer', 'boolean', 'array'] as const;

// One placeholder component per registry name; getWidget returns a cached wrapper of the entry
// it picks, which says the name back.
const placeholders: Record<string, Widget> = Object.fromEntries([...RJSF_WIDGET_NAMES, ...Object.keys(ENGINE_WIDGETS)].map((name) => [name, () => null]));
const nameOf = new Map(Object.entries(placeholders).map(([name, widget]) => [getWidget({ type: 'string' }, widget), name]));

/** Every registry entry a widget name or a format picks, over the types rjsf maps names for. */
export function registryNamesFor(name: string): string[] {
  return [
    ...new Set(
      TYPES.flatMap((type) => {
        try {
          return [nameOf.get(getWidget({ type } as RJSFSchema, name, placeholders)) ?? '?'];
        } catch {
          return []; // no widget of that name for that type
        }
      }),
    ),
  ];
}

function* walk(value: unknown, path = ''): Generator<[path: string, key: string, value: unknown]> {
  if (!value || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value)) {
    yield [path, key, child];
    yield* walk(child, `${path}/${key}`);
  }
}

const typesOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []);

export interface FormParts {
  /** Engine widgets by registry name (widget-names.ts). */
  widgets: EngineWidgetName[];
  /** The ArrayField (the engine's stand-in for rjsf's in a build). */
  arrays: boolean;
  /** rjsf's BooleanField. */
  booleans: boolean;
  /** The allOf merge (the engine's, src/engine/shallow-all-of-merge.ts, in a build). */
  allOf: boolean;
}

/** The parts a bundled form (schema and UI schema) needs. Generous where unsure: a part too many
 *  costs bytes, a part missing fails the form. */
export function formParts(schema: object, uiSchema: object): FormParts {
  // Only the validator reads what sits inside a `not` (a refused pattern); rjsf never renders it.
  const rendered = [...walk(schema)].filter(([path]) => !/\/not(\/|$)/.test(path));
  const types = new Set(rendered.filter(([, key]) => key === 'type').flatMap(([, , value]) => typesOf(value)));
  const names = [
    ...[...walk(uiSchema)].filter(([, key, value]) => key === 'ui:widget' && typeof value === 'string').map(([, , value]) => String(value)),
    ...rendered.filter(([, key, value]) => key === 'format' && typeof value === 'string').map(([, , value]) => String(value)),
    // a boolean without a ui:widget is a checkbox
    ...(types.has('boolean') ? ['checkbox'] : []),
  ];
  const reached = new Set(names.flatMap((name) => [name, ...registryNamesFor(name)]));
  return {
    widgets: (Object.keys(ENGINE_WIDGETS) as EngineWidgetName[]).filter((name) => reached.has(name)),
    arrays: types.has('array') || rendered.some(([, key]) => key === 'items'),
    booleans: types.has('boolean'),
    allOf: rendered.some(([, key]) => key === 'allOf'),
  };
}
