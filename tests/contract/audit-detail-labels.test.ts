// Every key the server may write into an audit entry's detail (AUDIT_DETAIL_KEYS beside
// audited(), whose type enforces them on each call) has a Japanese label in the back office's
// messages, so the audit log never shows an operator a bare key. The export's filter is the one
// nested object recorded: its keys are checked too.
import { describe, expect, it } from 'vitest';
import { AUDIT_DETAIL_KEYS } from '../../src/server/admin/audit';
import { EXPORT_FILTER } from '../../src/server/admin/services/members';
import text from '../../messages/admin.ja.json';

describe('audit detail labels', () => {
  it('each detail key the server records has a label in messages/admin.ja.json labels.auditDetail', () => {
    const labels = text.labels.auditDetail as Record<string, string>;
    const missing = [...AUDIT_DETAIL_KEYS, ...Object.keys(EXPORT_FILTER)].filter((key) => !labels[key]?.trim());
    expect(missing).toEqual([]);
  });
});
