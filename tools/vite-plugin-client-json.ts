// JSON that reaches the browser, as a build ships it (ADR 029):
// - without comments: every `$comment` (the notes schemas, the catalogue and the message files
//   carry for the people who edit them) is dropped from each JSON module the client imports;
//   the form modules drop theirs in tools/vite-plugin-forms.ts. tests/unit/dist-clean.test.ts
//   checks that no emitted file has one.
// - messages/ja.json by section: a client module's `import messages from '…/messages/ja.json'`
//   becomes a namespace import of one small module per top-level section ("login", "form", …),
//   so each section ships in the chunk of the code that reads it (`messages.login.lead`), not
//   every screen's texts in the entry. Reading `messages` as a whole (spreading it, indexing it
//   with a variable) would still work, with every section in that chunk.
// Build only: the dev server and the tests read the files as they are.
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

const MESSAGES_FILE = /\/messages\/ja\.json$/;
const SECTIONS = '\0member-site-messages';
const SECTION_PREFIX = `${SECTIONS}/`;
/** `import messages from '../../messages/ja.json';` as the client's modules write it. */
const MESSAGES_IMPORT = /^import (\w+) from '((?:\.\.?\/)+messages\/ja\.json)';$/gm;

/** A JSON value without the given keys, at any depth. */
export function withoutKeys<T>(value: T, keys: readonly string[]): T {
  if (Array.isArray(value)) return value.map((item) => withoutKeys(item, keys)) as T;
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)).map(([key, child]) => [key, withoutKeys(child, keys)])) as T;
}

/** A JSON value without its `$comment` keys, at any depth. */
export const withoutComments = <T>(value: T): T => withoutKeys(value, ['$comment']);

/** What a form schema carries that the browser never reads, beyond comments: its examples and
 *  the invalid ones (for the specification, the tests and the development review page), how a
 *  pattern reads in the specification, the server's checks and whether the form submits, and the
 *  required message the build has already put into errorMessage. */
export const NOT_FOR_THE_BROWSER = ['$comment', 'examples', 'x-invalid-examples', 'x-pattern-description', 'x-server-checks', 'x-submits', 'x-required-message', 'x-options-from'] as const;

/** What a list's declaration (schemas/records/<kind>.json) carries for the server alone: the
 *  tables, columns and indexes its query reads, and the actions' routes and audit names. The
 *  back office's screen reads the labels, filters' names and options, sorts' names and routes. */
export const SERVER_ONLY_RECORD_KEYS = ['$comment', '$schema', 'source', 'column', 'keys', 'indexes', 'actions'] as const;
const RECORD_FILE = /\/schemas\/records\/[^/]+\.json$/;

const posix = (id: string) => id.replace(/\\/g, '/');

export function clientJsonPlugin(): Plugin {
  let messagesPath: string | undefined;
  const sections = () => withoutComments(JSON.parse(readFileSync(messagesPath!, 'utf8')) as Record<string, unknown>);
  return {
    name: 'member-site-client-json',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source === SECTIONS || source.startsWith(SECTION_PREFIX)) return source;
      if (!source.endsWith('messages/ja.json?sections')) return undefined;
      const resolved = await this.resolve(source.slice(0, -'?sections'.length), importer, { skipSelf: true });
      if (!resolved || !MESSAGES_FILE.test(posix(resolved.id))) return undefined;
      messagesPath = resolved.id;
      return SECTIONS;
    },
    load(id) {
      if (id === SECTIONS) {
        return Object.keys(sections())
          .map((key) => {
            if (!/^[A-Za-z_$][\w$]*$/.test(key)) throw new Error(`messages/ja.json: the section "${key}" is no identifier (\`messages.${key}\` could not read it)`);
            return `export { default as ${key} } from ${JSON.stringify(SECTION_PREFIX + key)};`;
          })
          .join('\n');
      }
      if (id.startsWith(SECTION_PREFIX)) return `export default ${JSON.stringify(sections()[id.slice(SECTION_PREFIX.length)])};`;
      return undefined;
    },
    transform(code, id) {
      const file = posix(id);
      if (file.includes('/node_modules/') || file.startsWith('\0')) return undefined;
      if (RECORD_FILE.test(file)) return { code: JSON.stringify(withoutKeys(JSON.parse(code), SERVER_ONLY_RECORD_KEYS)), map: null };
      if (file.endsWith('.json')) return { code: JSON.stringify(withoutComments(JSON.parse(code))), map: null };
      if (/\/src\/.*\.tsx?$/.test(file) && code.includes('messages/ja.json')) {
        return { code: code.replace(MESSAGES_IMPORT, "import * as $1 from '$2?sections';"), map: null };
      }
      return undefined;
    },
  };
}
