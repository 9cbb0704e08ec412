// The audit log as admin reads it: newest first, filtered by action, operator, member and time
// (each filter one range of its index: audit_log_action, _operator, _member, _list).
import type { Db } from '../../db/connect';
import { countOf, type Paging } from './common';
import { fullName } from './applications';
import type { AuditItem, Page } from '../../../shared/admin-api';

export interface AuditFilter {
  action?: string;
  operator?: string;
  member?: string;
  from?: string;
  to?: string;
}

const parsed = (text: string): Record<string, unknown> => {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
};

export async function listAudit(db: Db, filter: AuditFilter, paging: Paging): Promise<Page<AuditItem>> {
  const filtered = <Q extends ReturnType<typeof base>>(query: Q) => {
    let out = query;
    if (filter.action) out = out.where('audit_log.action', '=', filter.action) as Q;
    if (filter.operator) out = out.where('audit_log.operator_id', '=', filter.operator) as Q;
    if (filter.member) out = out.where('audit_log.member_id', '=', filter.member) as Q;
    if (filter.from) out = out.where('audit_log.at', '>=', filter.from) as Q;
    if (filter.to) out = out.where('audit_log.at', '<', filter.to) as Q;
    return out;
  };
  const base = () => db.selectFrom('audit_log');
  const rows = await filtered(base())
    .leftJoin('users', 'users.id', 'audit_log.member_id')
    .select(['audit_log.id', 'audit_log.at', 'audit_log.actor_type', 'audit_log.actor_label', 'audit_log.actor_role', 'audit_log.action', 'audit_log.member_id', 'audit_log.target', 'audit_log.detail', 'audit_log.ip', 'users.last_name_kanji', 'users.first_name_kanji'])
    .orderBy('audit_log.at', 'desc')
    .orderBy('audit_log.id', 'desc')
    .limit(paging.size)
    .offset((paging.page - 1) * paging.size)
    .execute();
  const total = await filtered(base()).select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirst();
  return {
    items: rows.map((row) => ({
      id: row.id,
      at: row.at,
      actor_type: row.actor_type,
      actor_label: row.actor_label,
      actor_role: row.actor_role,
      action: row.action,
      member_id: row.member_id,
      ...(row.last_name_kanji !== null && row.first_name_kanji !== null ? { member_name: fullName({ last_name_kanji: row.last_name_kanji, first_name_kanji: row.first_name_kanji }) } : {}),
      target: row.target,
      detail: parsed(row.detail),
      ip: row.ip,
    })),
    total: countOf(total),
    ...paging,
  };
}
