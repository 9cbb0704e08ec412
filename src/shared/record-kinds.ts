// The record kinds of the back office, each declared once in schemas/records/<kind>.json (the
// form: schemas/records/record-kind.schema.json). The server's list function
// (src/server/admin/records/list.ts), its routes, the operator tool and the back office's list
// screen (src/admin/records/) read a kind's columns, filters, sorts, page size, detail, actions
// and audit actions from here and nowhere else. The browser's copy has no `source`, `column`,
// `keys`, `indexes` or `actions` (tools/vite-plugin-client-json.ts): the screen reads none.
import applications from '../../schemas/records/applications.json';
import members from '../../schemas/records/members.json';
import inquiries from '../../schemas/records/inquiries.json';
import notices from '../../schemas/records/notices.json';
import audit from '../../schemas/records/audit.json';
import operators from '../../schemas/records/operators.json';
import requests from '../../schemas/records/requests.json';

export type SourceName = 'applications' | 'members' | 'inquiries' | 'notices' | 'operators' | 'audit' | 'requests';

export interface ColumnDecl {
  name: string;
  /** A key of messages/admin.ja.json (fields.email). */
  label?: string;
  /** A field of the member record: its label is the profile form's. */
  field?: string;
  type?: 'text' | 'datetime' | 'label';
  /** A group of messages/admin.ja.json labels (labels.<labels>.<value>). */
  labels?: string;
  link?: boolean;
}

export interface FilterDecl {
  name: string;
  type: 'select' | 'period' | 'flag' | 'search' | 'text';
  label: string;
  column?: string;
  options?: string[];
  labels?: string;
  default?: string;
  value?: string;
  today?: boolean;
  numberColumn?: string;
  params?: string[];
  unit?: 'day' | 'time';
}

export interface SortDecl {
  name: string;
  label: string;
  keys: Array<[string, 'asc' | 'desc']>;
  /** The index a read uses, by its equality filters ('status', 'prefecture'; '' for none). */
  indexes: Record<string, string>;
}

export interface ActionDecl {
  name: string;
  /** 'POST /v1/admin/…' */
  route: string;
  permission: string;
  audit: string[];
}

export interface RecordKind {
  kind: string;
  source: SourceName;
  view: { route: string; permission: string; audit: string | null };
  pageSize: number;
  key: string;
  caption: string;
  detail?: { path: string; route: string; permission: string; audit: string | null };
  columns: ColumnDecl[];
  filters: FilterDecl[];
  sorts: SortDecl[];
  actions: ActionDecl[];
}

export const RECORD_KINDS = { applications, members, inquiries, notices, audit, operators, requests } as unknown as Record<
  'applications' | 'members' | 'inquiries' | 'notices' | 'audit' | 'operators' | 'requests',
  RecordKind
>;

export type KindName = keyof typeof RECORD_KINDS;

/** The query-string parameters of a period filter: from and to. */
export const periodParams = (filter: FilterDecl): [string, string] =>
  (filter.params as [string, string] | undefined) ?? [`${filter.name}_from`, `${filter.name}_to`];

/** A sort's name, or the kind's first. */
export const sortOf = (kind: RecordKind, name: string | undefined): SortDecl => kind.sorts.find((s) => s.name === name) ?? kind.sorts[0]!;
