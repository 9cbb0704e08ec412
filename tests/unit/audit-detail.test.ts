// The audit log's detail as the operator reads it (src/admin/format.ts auditDetailLines): each key
// by its label, codes by their words, lists and nested values on one line, and a key or code with
// no label shown as it is rather than hidden.
import { describe, expect, it } from 'vitest';
import { auditDetailLines } from '../../src/admin/format';
import text from '../../messages/admin.ja.json';

const pair = (label: string, value: string) => text.audit.detailPair.replace('{label}', label).replace('{value}', value);

describe('auditDetailLines', () => {
  it('labels each key and names a code by its label', () => {
    expect(auditDetailLines('applications.decline', { decision: 'declined', reason: '書類の不足' })).toEqual([
      { key: 'decision', label: '結果', value: '否認' },
      { key: 'reason', label: '理由', value: '書類の不足' },
    ]);
    expect(auditDetailLines('operators.add', { name: '事務局 花子', role: 'secretariat' })[1]).toEqual({ key: 'role', label: '権限', value: '事務局' });
  });

  it('reads `previous` and `status` by the action’s kind of status', () => {
    expect(auditDetailLines('inquiries.done', { previous: 'answered' })[0].value).toBe(text.labels.inquiryStatus.answered);
    expect(auditDetailLines('operators.disable', { previous: 'active' })[0].value).toBe(text.labels.operatorStatus.active);
    expect(auditDetailLines('operators.link', { status: 'invited' })[0].value).toBe(text.labels.operatorStatus.invited);
    // an assignment's previous is an operator id (or none): shown as it is
    expect(auditDetailLines('inquiries.assign', { previous: 'op-9' })[0].value).toBe('op-9');
    expect(auditDetailLines('inquiries.assign', { previous: null })[0].value).toBe(text.common.none);
  });

  it('joins a list with 、, a nested object as label：value, numbers and times as people write them', () => {
    const [columns, filter, rows] = auditDetailLines('members.export', { columns: ['email', 'last_name_kanji'], filter: { mail_opt: true, status: 'active' }, rows: 1234 });
    expect(columns).toEqual({ key: 'columns', label: '出力項目', value: 'email、last_name_kanji' });
    expect(filter.value).toBe([pair('メール配信への同意', 'はい'), pair('状態', '利用中')].join('、'));
    expect(rows.value).toBe('1,234');
    expect(auditDetailLines('notices.send', { publish_at: '2026-04-01T00:00:00Z', audience: 'all' })).toEqual([
      { key: 'publish_at', label: '公開日時', value: '2026/04/01 09:00' },
      { key: 'audience', label: '送信先', value: 'すべての会員' },
    ]);
  });

  it('keeps a long text whole', () => {
    const answer = '対象は次のとおりです。\n'.repeat(40);
    expect(auditDetailLines('inquiries.answer', { answer })[0].value).toBe(answer);
  });

  it('shows an unknown key by its name and an unknown code as it is, never crashing', () => {
    expect(auditDetailLines('something.new', { shoe_size: 27, decision: 'maybe', nested: { deep: [1, { x: 'y' }] } })).toEqual([
      { key: 'shoe_size', label: 'shoe_size', value: '27' },
      { key: 'decision', label: '結果', value: 'maybe' },
      { key: 'nested', label: 'nested', value: pair('deep', ['1', pair('x', 'y')].join('、')) },
    ]);
  });

  it('an empty detail has no lines', () => {
    expect(auditDetailLines('session.login', {})).toEqual([]);
    expect(auditDetailLines('session.login', null)).toEqual([]);
  });
});
