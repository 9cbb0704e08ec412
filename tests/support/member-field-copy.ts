// A product owner's member-field change, made in JSON only on a copy of schemas/ (the README's
// "Add a member field"): a new optional select `prefecture` (the 47 prefectures, a new option
// list) asked at registration STEP2 and on the edit form; `amc` made required on the edit form;
// `purpose_detail` on the edit form required only when mail_opt is "1" (if/then).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCHEMAS_DIR } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';

export const PREFECTURES = [
  '北海道', '青森県', '岩手県', '宮城県', '秋田県', '山形県', '福島県', '茨城県', '栃木県', '群馬県', '埼玉県', '千葉県',
  '東京都', '神奈川県', '新潟県', '富山県', '石川県', '福井県', '山梨県', '長野県', '岐阜県', '静岡県', '愛知県', '三重県',
  '滋賀県', '京都府', '大阪府', '兵庫県', '奈良県', '和歌山県', '鳥取県', '島根県', '岡山県', '広島県', '山口県', '徳島県',
  '香川県', '愛媛県', '高知県', '福岡県', '佐賀県', '長崎県', '熊本県', '大分県', '宮崎県', '鹿児島県', '沖縄県',
];

/** What a product owner writes: the field in the form schema, its widget in the UI schema. */
export const PREFECTURE_FIELD = { $ref: 'fields.json#/$defs/masterCode', title: '都道府県', 'x-master': 'prefecture' };
export const PREFECTURE_UI = { 'ui:title': '都道府県', 'ui:widget': 'master-select' };

export interface MemberFieldCopy {
  schemasDir: string;
  remove(): void;
}

function editJson(file: string, edit: (json: JsonObject) => void) {
  const json = JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
  edit(json);
  writeFileSync(file, JSON.stringify(json, null, 2));
}

/** `name` placed after `after` in a list of field names. */
function insertAfter(list: string[], after: string, name: string) {
  list.splice(list.indexOf(after) + 1, 0, name);
}

export function makeMemberFieldCopy(): MemberFieldCopy {
  const root = mkdtempSync(join(tmpdir(), 'member-field-'));
  const schemasDir = join(root, 'schemas');
  cpSync(SCHEMAS_DIR, schemasDir, { recursive: true });
  const forms = join(schemasDir, 'forms');

  editJson(join(schemasDir, 'masters', 'options.json'), (json) => {
    json.prefecture = PREFECTURES.map((label, i) => ({ value: String(i + 1), label }));
  });
  for (const form of ['register-profile', 'edit-profile']) {
    editJson(join(forms, `${form}.schema.json`), (json) => {
      (json.properties as JsonObject).prefecture = PREFECTURE_FIELD;
    });
    editJson(join(forms, `${form}.ui.json`), (json) => {
      insertAfter(json['ui:order'] as string[], 'address_current', 'prefecture');
      for (const section of (json['ui:sections'] as Array<{ fields: string[] }> | undefined) ?? []) {
        if (section.fields.includes('address_current')) insertAfter(section.fields, 'address_current', 'prefecture');
      }
      json.prefecture = PREFECTURE_UI;
    });
  }
  editJson(join(forms, 'edit-profile.schema.json'), (json) => {
    const required = json.required as string[];
    if (!required.includes('amc')) required.push('amc');
    required.splice(required.indexOf('purpose_detail'), 1);
    (json.allOf as JsonObject[]).push({
      if: { properties: { mail_opt: { const: '1' } }, required: ['mail_opt'] },
      then: { required: ['purpose_detail'] },
    });
  });
  return { schemasDir, remove: () => rmSync(root, { recursive: true, force: true }) };
}
