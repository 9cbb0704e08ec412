/** What the engine keeps in rjsf's formContext: which fields the member has left, and whether
 *  they have tried to submit. Errors show for those fields, or for all after a submit. */
export interface EngineContext {
  touched: ReadonlySet<string>;
  submitted: boolean;
  serverErrorIds: ReadonlySet<string>;
}

export function errorsVisible(context: unknown, id: string): boolean {
  const ctx = context as EngineContext | undefined;
  if (!ctx) return true;
  return ctx.submitted || ctx.serverErrorIds.has(id) || [...ctx.touched].some((t) => t === id || t.startsWith(`${id}_`));
}
