// The accessibility report (docs/accessibility-report.md): each success criterion of WCAG 2.2 A
// and AA (JIS X 8341-3:2016 = WCAG 2.0's) with how it was tested and the result, from the
// criteria's declaration (docs/accessibility/criteria.json) and what the last browser test run
// recorded (e2e/support/a11y-record.ts). Deterministic: it names checks, rules and states, never
// a time, so a run that checked the same things gives the same file and CI can diff it.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import type { A11yRecord, ScriptedCheck } from '../../e2e/support/scripted-checks';
import { criteriaOfTags, type TestRecord } from '../../e2e/support/a11y-record';

export const REPORT_FILE = 'docs/accessibility-report.md';
export const CRITERIA_FILE = 'docs/accessibility/criteria.json';

interface Criterion {
  id: string;
  level: 'A' | 'AA';
  since: '2.0' | '2.1' | '2.2';
  title: string;
  checks?: string[];
  /** Unit tests that hold the criterion (npm test runs them), by file. */
  tests?: string[];
  manual?: { what: string; lastChecked: string | null };
  notApplicable?: string;
}

/** What each scripted check is, as the report says it. */
const CHECKS: Record<string, string> = {
  'sr-name': 'アクセシビリティツリー：各項目の名前に画面のラベルが含まれる',
  'sr-required': 'アクセシビリティツリー：必須項目が必須として伝わる',
  'sr-description': 'アクセシビリティツリー：説明（入力のヒント）が項目に結び付く',
  'sr-error': 'アクセシビリティツリー：送信を断られた後、エラーが項目の説明として伝わる',
  'sr-live': 'ライブリージョン：画面に出ていないことは読み上げず、表示した状態は読み上げる',
  keyboard: 'キーボードだけで手続きを最後まで行える（トラップなし）',
  'focus-moves': 'フォーカスが次に操作する場所へ移り、見える位置にある',
  targets: '操作できる要素の高さが 44px 以上（スマートフォン幅）',
  reflow: '幅 320px・200% 拡大で横スクロールせずに読める',
  'text-spacing': '行間・文字間を広げても文字が欠けない',
  'page-title': '画面ごとのタイトルが親ページのタイトルにも反映される',
  'session-warning': '操作時間の終了前に 20 秒以上の余裕をもって警告し、延長できる',
  'error-summary': 'エラーの一覧が件数と項目へのリンクを示し、フォーカスを受ける',
  'kept-input': '一度入力した内容を同じ手続きで再入力させない（戻っても残る）',
};

const readCriteria = (root: string): { standard: string; criteria: Criterion[] } => JSON.parse(readFileSync(join(root, CRITERIA_FILE), 'utf8'));

/** Every record of the last run (test-results/a11y/*.jsonl). */
export function readRecords(dir: string): A11yRecord[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as A11yRecord);
}

/** The screen-reader contract's checks (e2e/support/heard.ts) by the name criteria.json gives them. */
const CONTRACT: Record<string, ScriptedCheck> = {
  'name-holds-label': 'sr-name',
  'required-exposed': 'sr-required',
  'hint-in-description': 'sr-description',
  'error-in-description': 'sr-error',
};

/** The contract's checkpoints (test-results/a11y-checks/*.json, one file per test) as records:
 *  each passed contract check at its state, each checkpoint as an axe run, and each test whose
 *  live regions said only what was shown (and said every status shown) as sr-live. The back
 *  office's checkpoints are left out: the report is the member site's. */
export function contractRecords(dir: string): A11yRecord[] {
  if (!existsSync(dir)) return [];
  const out: A11yRecord[] = [];
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const test = JSON.parse(readFileSync(join(dir, name), 'utf8')) as TestRecord;
    let memberSite = false;
    for (const point of test.checkpoints) {
      if (point.url.startsWith('/admin')) continue;
      memberSite = true;
      if (point.checks.some((c) => c.check.startsWith('axe:'))) out.push({ kind: 'axe', state: point.state });
      for (const c of point.checks) {
        const check = CONTRACT[c.check];
        if (check && c.result === 'passed' && c.count > 0) out.push({ kind: 'check', check, state: point.state });
      }
    }
    // Whether a test's live regions spoke depends on what it did, not on timing; what is checked is
    // that nothing was said unshown and nothing shown went unsaid, so every such test counts.
    if (memberSite && test.speech.failures.length === 0) out.push({ kind: 'check', check: 'sr-live', state: test.test });
  }
  return out;
}

/** axe-core's rules for WCAG 2.x A/AA, by the criterion each is tagged with. */
function axeRulesByCriterion(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const rule of axe.getRules(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])) {
    for (const id of criteriaOfTags(rule.tags)) out.set(id, [...(out.get(id) ?? []), rule.ruleId].sort());
  }
  return out;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderReport(records: A11yRecord[], root = '.'): string {
  const { standard, criteria } = readCriteria(root);
  const axeStates = [...new Set(records.filter((r) => r.kind === 'axe').map((r) => r.state))].sort();
  const statesOf = new Map<string, Set<string>>();
  for (const r of records) if (r.kind === 'check') (statesOf.get(r.check) ?? statesOf.set(r.check, new Set()).get(r.check)!).add(r.state);
  const allStates = [...new Set(records.map((r) => r.state))].sort();
  const number = new Map(allStates.map((s, i) => [s, i + 1]));
  const rules = axeRulesByCriterion();
  const counts = { pass: 0, manual: 0, na: 0, untested: 0 };

  const rows = criteria.map((c) => {
    const jis = c.since === '2.0' ? '○' : '';
    if (c.notApplicable) {
      counts.na++;
      return `| ${c.id} ${c.title} | ${c.level} | ${jis} | ${cell(c.notApplicable)} | – | 該当なし |`;
    }
    const how: string[] = [];
    const missing: string[] = [];
    for (const check of c.checks ?? []) {
      const states = [...(statesOf.get(check) ?? [])].sort();
      if (states.length === 0) missing.push(check);
      how.push(`${CHECKS[check] ?? check}（${states.length ? states.map((s) => `#${number.get(s)}`).join(' ') : '記録なし'}）`);
    }
    for (const file of c.tests ?? []) {
      if (!existsSync(join(root, file))) missing.push(file);
      how.push(`単体テスト：${file}`);
    }
    const axeRules = rules.get(c.id) ?? [];
    if (axeRules.length && axeStates.length) how.push(`axe-core：${axeRules.join(', ')}（全 ${axeStates.length} 状態で違反なし）`);
    if (c.manual) how.push(`目視：${c.manual.what}（最終確認：${c.manual.lastChecked ?? '未実施'}）`);
    const automated = how.length - (c.manual ? 1 : 0) - missing.length > 0;
    let result: string;
    if (missing.length || (!automated && !c.manual)) {
      result = '未試験';
      counts.untested++;
    } else if (c.manual && !c.manual.lastChecked) {
      result = automated ? '自動試験は適合・目視確認待ち' : '目視確認待ち';
      counts.manual++;
    } else {
      result = '適合';
      counts.pass++;
    }
    const kind = [automated ? '自動' : '', c.manual ? '目視' : ''].filter(Boolean).join('＋') || '–';
    return `| ${c.id} ${c.title} | ${c.level} | ${jis} | ${cell(how.join('<br>'))} | ${kind} | ${result} |`;
  });

  return [
    '# ウェブアクセシビリティ試験結果',
    '',
    '<!-- 生成ファイルです。手で編集しないでください。npm run a11y-report が docs/accessibility/criteria.json と直前のブラウザテストの記録から作ります。 -->',
    '',
    `- 対象：二地域居住応援プログラム 会員サイト（/user、親サイトの iframe 内とスマートフォン幅を含む）`,
    `- 規格：${standard}`,
    '- 試験の方法：ブラウザテスト（Chromium）の中で、axe-core による自動試験と、スクリーンリーダーに伝わる内容（アクセシビリティツリー、ライブリージョン）・キーボード操作・ターゲットの大きさ等の確認を行い、その記録からこの表を作っています。人が確認する項目はその旨と最終確認日を示します。',
    `- 結果：適合 ${counts.pass}、目視確認待ちを含む ${counts.manual}、該当なし ${counts.na}、未試験 ${counts.untested}（全 ${criteria.length} 達成基準）`,
    '',
    '## 達成基準ごとの結果',
    '',
    '| 達成基準 | レベル | JIS | 確認の方法（#は下の状態一覧の番号） | 種別 | 結果 |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    '## 試験した画面と状態',
    '',
    ...allStates.map((s) => `${number.get(s)}. ${s}`),
    '',
  ].join('\n');
}

/** The report as `root`'s last run recorded it. */
export const generateReport = (root = '.') =>
  renderReport([...readRecords(join(root, 'test-results', 'a11y')), ...contractRecords(join(root, 'test-results', 'a11y-checks'))], root);
