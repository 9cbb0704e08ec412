// Every engine widget by its registry name (widget-names.ts), with the engine's templates: what
// the tests render forms with, and what the form review page (src/dev) lists. A screen's form
// gets only the widgets it reaches from its form module (virtual:form/<name>, ADR 029), so no
// production screen imports this file.
import type { RegistryWidgetsType, Widget } from '@rjsf/utils';
import { ENGINE_WIDGETS } from './widget-names';

export { templates } from './theme';

const files = import.meta.glob<{ default: Widget }>('./widgets/*Widget.tsx', { eager: true });

export const widgets: RegistryWidgetsType = Object.fromEntries(
  Object.entries(ENGINE_WIDGETS).map(([name, file]) => {
    const module = files[`./widgets/${file}.tsx`];
    if (!module) throw new Error(`src/engine/widget-names.ts names ${file}, which is no file in src/engine/widgets`);
    return [name, module.default];
  }),
);
