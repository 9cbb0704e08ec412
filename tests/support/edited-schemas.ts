// A product owner's edit, made in JSON only on a copy of schemas/ and messages/: the registration
// form's purpose_detail limit (80 → 100 in the project as shipped), one message's wording, the
// kanji family name's limit and wording (shared by every form) and one new purpose option. Tests that show every part of the stack follows it import this (the
// validation spec generator's test adds its own check on the same copy). `copySchemas` gives a
// plain copy for a test's own edit.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCHEMAS_DIR } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';

export const MESSAGES_DIR = join(SCHEMAS_DIR, '..', 'messages');

export interface SchemasCopy {
  /** The root of the copy: `schemas/` and `messages/` beneath it. */
  root: string;
  schemasDir: string;
  messagesDir: string;
  /** Edits a JSON file of the copy's schemas/ ("forms/edit-profile.schema.json") in place. */
  edit(file: string, edit: (json: JsonObject) => void): void;
  remove(): void;
}

export interface EditedCopy extends SchemasCopy {
  /** purpose_detail's maxLength before and after. */
  before: number;
  after: number;
  /** The new wording of the purpose_detail URL/emoji/HTML ban (fields.json noUrlHtmlOrEmoji "not"). */
  banMessage: string;
  /** The purpose option added to schemas/masters/options.json. */
  option: { value: string; label: string };
  /** The kanji family name's (fields.json kanjiFamilyName) maxLength before and after, and its
   *  reworded pattern message. */
  familyName: { before: number; after: number; patternMessage: string };
}

function editJson(file: string, edit: (json: JsonObject) => void) {
  const json = JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
  edit(json);
  writeFileSync(file, JSON.stringify(json, null, 2));
}

/** A fresh copy of schemas/ and messages/ in a temporary folder. */
export function copySchemas(): SchemasCopy {
  const root = mkdtempSync(join(tmpdir(), 'edited-schemas-'));
  const schemasDir = join(root, 'schemas');
  const messagesDir = join(root, 'messages');
  cpSync(SCHEMAS_DIR, schemasDir, { recursive: true });
  cpSync(MESSAGES_DIR, messagesDir, { recursive: true });
  return {
    root,
    schemasDir,
    messagesDir,
    edit: (file, edit) => editJson(join(schemasDir, file), edit),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

export function makeEditedCopy(): EditedCopy {
  const copy = copySchemas();

  // Relative to what the files say now, so the test still means something after the same edit
  // is made in the real files (80 → 100 as shipped).
  let before = 0;
  let after = 0;
  copy.edit('forms/register-profile.schema.json', (json) => {
    const node = (json.properties as Record<string, JsonObject>).purpose_detail;
    before = node.maxLength as number;
    after = before + 20;
    node.maxLength = after;
  });
  let banMessage = '';
  copy.edit('shared/fields.json', (json) => {
    const messages = (json.$defs as Record<string, JsonObject>).noUrlHtmlOrEmoji.errorMessage as JsonObject;
    banMessage = `${messages.not as string}（テスト用に言い換えた文言）`;
    messages.not = banMessage;
  });
  let option = { value: '', label: '地域の祭りに参加する（テスト用）' };
  copy.edit('masters/options.json', (json) => {
    const list = json.purpose as Array<{ value: string; label: string }>;
    const taken = new Set(list.map((o) => o.value));
    option = { ...option, value: String([...Array(98).keys()].map((i) => i + 1).find((n) => !taken.has(String(n)))) };
    // Before "other", where a product owner would add it.
    list.splice(Math.max(0, list.length - 1), 0, option);
  });
  const familyName = { before: 0, after: 0, patternMessage: '' };
  copy.edit('shared/fields.json', (json) => {
    const def = (json.$defs as Record<string, JsonObject>).kanjiFamilyName;
    const messages = def.errorMessage as JsonObject;
    familyName.before = def.maxLength as number;
    familyName.after = familyName.before - 20;
    def.maxLength = familyName.after;
    familyName.patternMessage = `${messages.pattern as string}（テスト用に言い換えた文言）`;
    messages.pattern = familyName.patternMessage;
  });
  return { ...copy, before, after, banMessage, option, familyName };
}
