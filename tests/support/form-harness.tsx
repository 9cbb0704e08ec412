// Renders a form module through the engine's SchemaForm, holding its data like a screen does.
import { useState } from 'react';
import { act } from '@testing-library/react';
import { commitWaiting } from '../../src/engine/catch-up';
import type { UiSchema } from '@rjsf/utils';
import { SchemaForm, type FormModule } from '../../src/engine/SchemaForm';
import type { FieldErrors } from '../../src/shared/validation/field-errors';
import type { MasterOption, PostalLookup } from '../../src/engine/form-context';

export interface HarnessProps {
  form: FormModule;
  initial?: Record<string, unknown>;
  uiOverrides?: UiSchema;
  serverErrors?: FieldErrors;
  /** Every committed change of the form data. */
  onData?: (data: Record<string, unknown>) => void;
  onSubmit?: (data: Record<string, unknown>) => void;
  /** Master option lists for the master-* widgets (passed through to SchemaForm). */
  masters?: Record<string, MasterOption[] | undefined>;
  /** Replaces the real postal lookup (passed through to SchemaForm). */
  postalLookup?: PostalLookup;
  /** Passed through to SchemaForm. */
  showErrorsOnOpen?: boolean;
}

export function FormHarness({ form, initial, uiOverrides, serverErrors, onData, onSubmit, masters, postalLookup, showErrorsOnOpen }: HarnessProps) {
  const [data, setData] = useState<Partial<Record<string, unknown>>>(initial ?? {});
  return (
    <SchemaForm<Record<string, unknown>>
      form={form}
      formData={data}
      uiOverrides={uiOverrides}
      serverErrors={serverErrors}
      masters={masters}
      postalLookup={postalLookup}
      showErrorsOnOpen={showErrorsOnOpen}
      onChange={(next) => {
        setData(next);
        onData?.(next as Record<string, unknown>);
      }}
      onSubmit={(submitted) => onSubmit?.(submitted)}
    />
  );
}

/** The form catching up with what was typed: a text field hands its value to the form when the
 *  member pauses (src/engine/catch-up.ts), so a test reads the form's data after this. */
export function catchUp() {
  act(() => commitWaiting());
}
