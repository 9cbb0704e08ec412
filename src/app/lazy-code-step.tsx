// The code step (CodeEntry with the flow's code form) as a chunk of its own, for a screen whose
// first paint has no code step (login, registration's STEP1): it opens only once a code was sent,
// so it is not part of the screen's first load (ADR 029). `preload` fetches it while the code is
// being sent, so it is there when the server answers; until it is, the step is not shown.
import { lazy, Suspense } from 'react';
import type { FormModule } from '../engine/SchemaForm';
import type { CodeEntryProps } from './CodeEntry';

export type CodeStepProps<C extends object> = Omit<CodeEntryProps<C>, 'form'>;

export function lazyCodeStep<C extends object>(loadForm: () => Promise<FormModule>) {
  let loading: Promise<[typeof import('./CodeEntry'), FormModule]> | undefined;
  const load = () => (loading ??= Promise.all([import('./CodeEntry'), loadForm()]));
  const Step = lazy(async () => {
    const [{ CodeEntry }, form] = await load();
    return { default: (props: CodeStepProps<C>) => <CodeEntry {...props} form={form} /> };
  });
  function CodeStep(props: CodeStepProps<C>) {
    return (
      <Suspense fallback={null}>
        <Step {...props} />
      </Suspense>
    );
  }
  return {
    CodeStep,
    preload: () => {
      // A failed fetch shows when the step renders (the screen's error boundary), not here.
      load().catch(() => (loading = undefined));
    },
  };
}
