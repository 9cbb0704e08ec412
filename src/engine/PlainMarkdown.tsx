// Stands in for markdown-to-jsx (aliased in vite.config.ts): rjsf renders descriptions and help
// through `Markdown` only when a UI schema sets ui:enableMarkdownInDescription / …InHelp, and no
// form here does (tests/contract/client-stand-ins.test.ts holds that). The parser is 86 KB that
// no screen would run; this shows the text as it is.
import type { ReactNode } from 'react';

export function Markdown({ children, 'data-testid': testId }: { children?: ReactNode; options?: unknown; 'data-testid'?: string }) {
  return <span data-testid={testId}>{children}</span>;
}

export default Markdown;
