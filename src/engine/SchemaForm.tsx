// A form screen's form: rjsf with the engine's theme, Japanese strings and the precompiled
// validators of one schemas/forms entry (imported as `virtual:form/<name>`): the form's, and each
// typed field's own, which judges a key before the form has it (ADR 028).
import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef, useState, type ForwardedRef, type ReactElement, type ReactNode } from 'react';
import Form from '@rjsf/core';
import { getDefaultFormState, type ErrorSchema, type Experimental_DefaultFormStateBehavior, type RegistryFieldsType, type RegistryWidgetsType, type RJSFSchema, type TemplatesType, type UiSchema } from '@rjsf/utils';
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import messages from '../../messages/ja.json';
import type { FieldErrors } from '../shared/validation/field-errors';
import { templates } from './theme';
import { transformErrors } from './transform-errors';
import { translateString } from './translate';
import type { EngineContext, MasterOption, PostalLookup } from './form-context';
import { useFocusFirstError } from './reveal';
import { afterPointerRelease, watchPointer } from './after-pointer';
import { normalise } from '../shared/normalise';
import type { JsonObject } from '../shared/validation/schema-bundle';
import { fieldNameOf, labelOf, summaryItems, summaryText, type SummaryItem } from './error-summary-items';
import { fieldNodes } from '../shared/validation/schema-nodes';
import { announce } from './LiveRegion';
import { createSummaryStore, SummarySlot, type SummaryStore } from './ErrorSummary';
import { fieldMessages, type FieldValidator } from './field-verdict';

export interface FormModule {
  name: string;
  schema: RJSFSchema;
  uiSchema: UiSchema;
  validateFns: ValidatorFunctions;
  /** One validator per typed field, by field name (tools/field-schemas.ts). */
  fieldValidateFns?: Record<string, FieldValidator>;
  /** The engine widgets the form reaches (tools/form-parts.ts), and in a build the rjsf parts
   *  only some forms need (ArrayField, its templates): a screen carries its own forms' parts. */
  widgets: RegistryWidgetsType;
  fields?: RegistryFieldsType;
  templates?: Partial<TemplatesType>;
}

/** The postal lookup (Japan Post's data, src/engine/postal.ts) loads with its first use: only a
 *  form with a postal code field looks one up (ADR 029). */
const lookupPostal: PostalLookup = (zip) => import('./postal').then(({ lookupAddresses }) => lookupAddresses(zip));

const themes = new WeakMap<object, Partial<TemplatesType>>();
/** The engine's templates with the ones the form brings, made once per form. */
function templatesOf(form: FormModule): Partial<TemplatesType> {
  if (!form.templates || Object.keys(form.templates).length === 0) return templates;
  let theme = themes.get(form.templates);
  if (!theme) themes.set(form.templates, (theme = { ...form.templates, ...templates }));
  return theme;
}

type Validator = ReturnType<typeof createPrecompiledValidator>;
const validators = new WeakMap<object, Validator>();
/** The rjsf validator of a form's precompiled functions, made once per form: the schema's verdict
 *  on `data` as it is (the server's, on what reaches it). */
export function validatorFor(form: FormModule): Validator {
  let validator = validators.get(form.validateFns);
  if (!validator) {
    validator = createPrecompiledValidator(form.validateFns, form.schema);
    validators.set(form.validateFns, validator);
  }
  return validator;
}

const liveValidators = new WeakMap<object, Validator>();
/** The validator a form shows errors from: it judges the data as it will be sent, through the
 *  normalisers its fields name (`x-normalise`, as normalise() applies them before sending and the
 *  server before judging). An input applies the normalisers that would get in the way of typing
 *  (removing hyphens, trimming) only when the field is left; judged raw, a phone typed
 *  03-1234-5678 was refused while typed and accepted once left, and the message going moved the
 *  button the member was pressing. */
export function liveValidatorFor(form: FormModule): Validator {
  let validator = liveValidators.get(form.validateFns);
  if (!validator) {
    const base = validatorFor(form);
    const root = form.schema as JsonObject;
    validator = Object.create(base) as Validator;
    validator.validateFormData = (data, ...rest) => base.validateFormData(normalise(root, data), ...rest);
    liveValidators.set(form.validateFns, validator);
  }
  return validator;
}

/** True when `data`, as it will be sent, satisfies the form's schema (for buttons that wait on
 *  several forms). */
export function isFormValid(form: FormModule, data: unknown): boolean {
  return liveValidatorFor(form).validateFormData(data, form.schema).errors.length === 0;
}

/** What an error summary lists for `data` in `form` (for a screen that gathers several forms). */
export function summaryOf(form: FormModule, data: unknown): SummaryItem[] {
  return summaryItems(form, liveValidatorFor(form).validateFormData(data, form.schema, undefined, transformErrors).errors);
}

// A `const: true` agreement must start unticked: never prefill a field from its const. An array
// with minItems must start empty, not padded with blank items (its `required` message would land
// on an item no widget shows).
const DEFAULTS_BEHAVIOUR: Experimental_DefaultFormStateBehavior = { constAsDefaults: 'never', arrayMinItems: { populate: 'never' } };

/** The data a form opens with before the member does anything: the schema's defaults, as the
 *  form itself fills them in. */
export function formDefaults(form: FormModule): Record<string, unknown> {
  return (getDefaultFormState(validatorFor(form), form.schema, {}, form.schema, false, DEFAULTS_BEHAVIOUR) ?? {}) as Record<string, unknown>;
}

const blank = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** True when the member changed something in `data` from what the form opened with (its
 *  defaults): a preset choice is not input, and neither is a field emptied again. */
export function differsFromDefaults(form: FormModule, data: Record<string, unknown> | undefined): boolean {
  if (!data) return false;
  const defaults = formDefaults(form);
  return Object.entries(data).some(([key, value]) => !(blank(value) && blank(defaults[key])) && JSON.stringify(value) !== JSON.stringify(defaults[key]));
}

/** `{ "email": ["…"] }` from the API to rjsf's error schema. */
export function toErrorSchema(fields: FieldErrors | undefined): ErrorSchema | undefined {
  if (!fields || Object.keys(fields).length === 0) return undefined;
  const root: Record<string, unknown> = {};
  for (const [path, list] of Object.entries(fields)) {
    let node = root;
    for (const key of path.split('.').filter(Boolean)) node = (node[key] ??= {}) as Record<string, unknown>;
    node.__errors = list;
  }
  return root as ErrorSchema;
}

function mergeUi(base: UiSchema, overrides?: UiSchema): UiSchema {
  if (!overrides) return base;
  const merged: UiSchema = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    merged[key] = value && typeof value === 'object' && !Array.isArray(value) ? { ...(base[key] ?? {}), ...value } : value;
  }
  return merged;
}

export interface SchemaFormProps<T> {
  form: FormModule;
  formData: Partial<T>;
  onChange: (data: Partial<T>) => void;
  /** Called only with data the schema accepted, as it accepted it (normalised). */
  onSubmit: (data: T) => void | Promise<void>;
  /** Field messages from a 400 answer; each disappears once its field is edited. */
  serverErrors?: FieldErrors;
  disabled?: boolean;
  busy?: boolean;
  /** Screen-specific UI changes (e.g. a field made read-only in a later step). */
  uiOverrides?: UiSchema;
  id?: string;
  /** Replaces the default submit button (the UI schema's submitText). */
  actions?: ReactNode;
  /** Shown between the fields and the buttons. */
  children?: ReactNode;
  /** Master option lists for master-* widgets, by master name. */
  masters?: Record<string, MasterOption[] | undefined>;
  postalLookup?: PostalLookup;
  /** Shows the errors of the data the form opens with at once, as a submit attempt would, and
   *  takes the member to the first: stored data that a rule tightened since now refuses. */
  showErrorsOnOpen?: boolean;
  /** False when the screen shows one error summary for several forms (registration). */
  summary?: boolean;
}

export interface SchemaFormHandle {
  /** Validates and shows every error, as a submit attempt would, without submitting. */
  showAllErrors(): boolean;
}

function SchemaFormInner<T extends object>(props: SchemaFormProps<T>, ref: ForwardedRef<SchemaFormHandle>) {
  const { form, formData, onChange, onSubmit, serverErrors, disabled, busy, uiOverrides, id, actions, children, masters, postalLookup, showErrorsOnOpen, summary = true } = props;
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  // Each refused submit (the form's own check, or the server's field errors) is an attempt: the
  // error summary shows and takes focus once for it.
  const [attempt, setAttempt] = useState(0);
  const focusedAttempt = useRef(0);
  const takeFocus = useRef((n: number) => (focusedAttempt.current < n ? ((focusedAttempt.current = n), true) : false)).current;
  const refused = () => {
    setSubmitted(true);
    setAttempt((n) => n + 1);
  };
  const rjsf = useRef<Form>(null);
  const summaryStore = useRef<SummaryStore>(null);
  summaryStore.current ??= createSummaryStore();
  const focusFirstError = useFocusFirstError();
  useEffect(watchPointer, []);
  const formElement = () => rjsf.current?.formElement.current as HTMLFormElement | null | undefined;
  // Once, when the form opens: a failed check is a failed submit attempt (onError, focus).
  useEffect(() => {
    if (showErrorsOnOpen) rjsf.current?.validateForm();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // Errors the server found are shown like the form's own: in the summary, which takes focus (or,
  // where the screen keeps the summary, the member is taken to the first).
  useEffect(() => {
    if (!serverErrors || !Object.keys(serverErrors).length) return;
    if (summary) setAttempt((n) => n + 1);
    else focusFirstError(formElement());
  }, [serverErrors, focusFirstError, summary]);
  // Widgets that fill other fields act after a lookup: they must see the latest data.
  const latest = useRef(formData);
  latest.current = formData;
  useImperativeHandle(ref, () => ({
    showAllErrors() {
      setSubmitted(true);
      return rjsf.current?.validateForm() ?? false;
    },
  }));
  const [dismissed, setDismissed] = useState<{ source?: FieldErrors; keys: Set<string> }>({ keys: new Set() });
  const validator = liveValidatorFor(form);
  const uiSchema = useMemo(() => mergeUi(form.uiSchema, uiOverrides), [form.uiSchema, uiOverrides]);

  const liveServerErrors = useMemo(() => {
    if (!serverErrors) return undefined;
    const keys = dismissed.source === serverErrors ? dismissed.keys : new Set<string>();
    return Object.fromEntries(Object.entries(serverErrors).filter(([key]) => !keys.has(key)));
  }, [serverErrors, dismissed]);

  const formContext: EngineContext = {
    touched,
    submitted,
    attempt,
    summary,
    takeFocus,
    publishSummary: summary ? summaryStore.current.publish : undefined,
    serverErrorIds: new Set(Object.keys(liveServerErrors ?? {}).map((k) => `root_${k.replace(/\./g, '_')}`)),
    masters: masters ?? {},
    patch: (values) => onChange({ ...latest.current, ...values } as Partial<T>),
    valueOf: (name) => (latest.current as Record<string, unknown>)[name],
    fieldMessages: (name, value) => fieldMessages(form, name, { ...(latest.current as Record<string, unknown>), [name]: value }),
    postalLookup: postalLookup ?? lookupPostal,
  };
  // Leaving a field in error says so once through the page's live region (its label and what it
  // needs); said again only when what it needs has changed. What is said is what the field shows
  // once the blur has rendered (its error list), never the validator's verdict on its own: a
  // field only passed through, with nothing shown, says nothing.
  const said = useRef(new Map<string, string>());
  const [left, setLeft] = useState<{ fieldId: string } | null>(null);
  useEffect(() => {
    if (!left) return;
    // After the blur's own change (a normaliser's rewrite) and the field's held messages have rendered.
    const timer = window.setTimeout(() => {
      const name = fieldNameOf(form, left.fieldId);
      if (!name) return;
      const shown = formElement()?.querySelector(`[id="root_${name}__error"] li`)?.textContent ?? '';
      if (!shown) return void said.current.delete(name);
      const text = summaryText(labelOf(form, name), shown, fieldNodes(form.schema as JsonObject)[name]?.title as string | undefined);
      if (said.current.get(name) === text) return;
      said.current.set(name, text);
      announce(text);
    }, 0);
    return () => window.clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per field left
  }, [left]);
  const submitText = (form.uiSchema['ui:submitButtonOptions'] as { submitText?: string } | undefined)?.submitText;

  return (
    <>
      {summary && <SummarySlot store={summaryStore.current} attempt={attempt} takeFocus={takeFocus} />}
      <Form
        ref={rjsf}
        id={id}
        // The schemas/forms entry it renders (the browser tests' screen-reader contract reads it).
        name={form.name}
        className="schema-form"
        schema={form.schema}
        uiSchema={uiSchema}
        formData={formData}
        validator={validator}
        widgets={form.widgets}
        fields={form.fields}
        templates={templatesOf(form)}
        translateString={translateString}
        transformErrors={transformErrors}
        extraErrors={toErrorSchema(liveServerErrors)}
        formContext={formContext}
        disabled={disabled}
        experimental_defaultFormStateBehavior={DEFAULTS_BEHAVIOUR}
        liveValidate="onChange"
        // The error list is the engine's error summary, at the top of the form.
        showErrorList="top"
        noHtml5Validate
        omitExtraData
        liveOmit="onChange"
        onBlur={(fieldId) =>
          afterPointerRelease(() => {
            setTouched((prev) => (prev.has(fieldId) ? prev : new Set(prev).add(fieldId)));
            setLeft({ fieldId });
          })
        }
        onChange={({ formData: next }) => {
          if (serverErrors) {
            const changed = Object.keys(serverErrors).filter(
              (key) => JSON.stringify((next as Record<string, unknown>)?.[key.split('.')[0]]) !== JSON.stringify((formData as Record<string, unknown>)[key.split('.')[0]]),
            );
            if (changed.length) {
              setDismissed((prev) => ({ source: serverErrors, keys: new Set([...(prev.source === serverErrors ? prev.keys : []), ...changed]) }));
            }
          }
          onChange(next as Partial<T>);
        }}
        // No focusing by rjsf: the summary takes focus (or the screen that keeps it decides).
        focusOnFirstError={false}
        onError={refused}
        onSubmit={({ formData: data }) => {
          setSubmitted(true);
          void onSubmit(normalise(form.schema as JsonObject, data as T));
        }}
      >
        {children}
        {actions ?? (
          <div className="actions">
            <button type="submit" className="button button--primary" disabled={disabled || busy}>
              {busy ? messages.form.busy : (submitText ?? '')}
            </button>
          </div>
        )}
      </Form>
    </>
  );
}

/** rjsf with the engine's theme; a ref gives `showAllErrors()`. */
export const SchemaForm = forwardRef(SchemaFormInner) as <T extends object>(
  props: SchemaFormProps<T> & { ref?: ForwardedRef<SchemaFormHandle> },
) => ReactElement;
