// The one list screen of the back office: any kind schemas/records/<kind>.json declares, with its
// filters (kept in the page's URL), its sort, a table of its columns (the linked one opens the
// row's detail), the pager with the count (records.countBound when the API's count stopped at its
// bound) and an empty state. A screen adds only what is particular to it: a cell drawn its own
// way, a column of actions.
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import text from '../../../messages/admin.ja.json';
import type { Page } from '../../shared/admin-api';
import { adminCall } from '../api';
import { formatDateTime } from '../format';
import { Failure, Loading, Pager, useLoad } from '../ui';
import { detailPathOf, filterQuery, japanToday, listPath, messageAt, optionLabel, optionsOf, pageNumber, paramsOf, urlValue, type ColumnDecl, type FilterDecl, type RecordKind } from './kinds';

export interface ExtraColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
}

export function RecordList<T extends object>({ kind, cells = {}, extraColumns = [], dense, round = 0 }: { kind: RecordKind; cells?: Partial<Record<string, (row: T) => ReactNode>>; extraColumns?: Array<ExtraColumn<T>>; dense?: boolean; round?: number }) {
  const [params, setParams] = useSearchParams();
  const page = pageNumber(params);
  const sort = params.get('sort') ?? '';
  const query = { ...filterQuery(kind, params), sort: sort || undefined, page, size: kind.pageSize };
  const list = useLoad(() => adminCall<Page<T>>('get', listPath(kind), { query }), `${JSON.stringify(query)}|${round}`);
  const set = (changes: Record<string, string>) => setParams((old) => urlOf(kind, { ...Object.fromEntries(old), ...changes, page: changes.page ?? '1' }));
  return (
    <>
      {(kind.filters.length > 0 || kind.sorts.length > 1) && <RecordFilters kind={kind} filters={kind.filters} onApply={set} sorts />}
      {list.loading && <Loading />}
      <Failure message={list.error} />
      {list.data && (
        <>
          {list.data.items.length === 0 ? (
            <p className="empty">{text.common.empty}</p>
          ) : (
            <table className={dense ? 'table table--dense' : 'table'}>
              <caption className="visually-hidden">{messageAt(kind.caption)}</caption>
              <thead>
                <tr>
                  {kind.columns.map((column) => (
                    <th scope="col" key={column.name}>
                      {columnLabel(column)}
                    </th>
                  ))}
                  {extraColumns.map((extra) => (
                    <th scope="col" key={extra.header}>
                      {extra.header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((row, i) => {
                  const record = row as Record<string, unknown>;
                  return (
                    <tr key={String(record[kind.key] ?? i)}>
                      {kind.columns.map((column) => (
                        <td key={column.name}>{cells[column.name] ? cells[column.name]!(row) : <Cell kind={kind} column={column} row={record} />}</td>
                      ))}
                      {extraColumns.map((extra) => (
                        <td key={extra.header}>{extra.cell(row)}</td>
                      ))}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
          <Pager page={page} size={list.data.size || kind.pageSize} total={list.data.total} bounded={!!list.data.bounded} more={list.data.items.length >= (list.data.size || kind.pageSize)} onPage={(p) => set({ page: String(p) })} />
        </>
      )}
    </>
  );
}

/** The page's URL values without the empty ones, but an empty select that has a default (it
 *  says "all"); page 1 is the page without a number. */
export function urlOf(kind: RecordKind, values: Record<string, string>): Record<string, string> {
  const keepEmpty = new Set(kind.filters.filter((f) => f.type === 'select' && f.default).map((f) => f.name));
  return Object.fromEntries(Object.entries(values).filter(([name, value]) => (value !== '' || keepEmpty.has(name)) && !(name === 'page' && value === '1')));
}

const columnLabel = (column: ColumnDecl) => (column.label ? messageAt(column.label) : (column.field ?? column.name));

function Cell({ kind, column, row }: { kind: RecordKind; column: ColumnDecl; row: Record<string, unknown> }) {
  const value = row[column.name];
  const shown = value === null || value === undefined ? '' : column.type === 'datetime' ? formatDateTime(String(value)) : column.type === 'label' ? optionLabel(column.labels, String(value)) : String(value);
  const to = column.link ? detailPathOf(kind, row) : undefined;
  return to ? <Link to={to}>{shown}</Link> : <>{shown}</>;
}

/** A kind's filters as a form: selects and the consent box apply at once, text, search and dates
 *  with the form's button (or Enter); records.today sets a day period to today. Its controls keep
 *  their place (and focus) while the list loads again. `sorts`: offer the kind's sort orders. */
export function RecordFilters({ kind, filters, onApply, sorts = false }: { kind: RecordKind; filters: FilterDecl[]; onApply: (changes: Record<string, string>) => void; sorts?: boolean }) {
  const [params] = useSearchParams();
  const names = filters.flatMap(paramsOf);
  const fromUrl = () => Object.fromEntries(filters.flatMap((filter) => paramsOf(filter).map((param) => [param, urlValue(filter, param, params)])));
  const [draft, setDraft] = useState<Record<string, string>>(fromUrl);
  const key = params.toString();
  // The URL changed (a link, back, records.clear): the controls show what it holds.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => setDraft(fromUrl()), [key]);
  const edit = (param: string, value: string) => setDraft((old) => ({ ...old, [param]: value }));
  const apply = (changes: Record<string, string>) => onApply({ ...draft, ...changes });
  const id = (param: string) => `filter-${kind.kind}-${param}`;
  const anySet = names.some((param) => params.get(param));
  return (
    <form
      className="filters"
      role="search"
      aria-label={text.records.filter}
      onSubmit={(event) => {
        event.preventDefault();
        apply({});
      }}
    >
      {filters.map((filter) => {
        if (filter.type === 'select' || (filter.type === 'text' && filter.labels)) {
          return (
            <label key={filter.name} htmlFor={id(filter.name)}>
              {messageAt(filter.label)}
              <select id={id(filter.name)} value={draft[filter.name] ?? ''} onChange={(event) => apply({ [filter.name]: event.target.value })}>
                <option value="">{text.common.all}</option>
                {optionsOf(filter).map((option) => (
                  <option key={option} value={option}>
                    {optionLabel(filter.labels, option)}
                  </option>
                ))}
              </select>
            </label>
          );
        }
        if (filter.type === 'flag') {
          return (
            <label key={filter.name} className="filters__check" htmlFor={id(filter.name)}>
              <input id={id(filter.name)} type="checkbox" checked={!!draft[filter.name]} onChange={(event) => apply({ [filter.name]: event.target.checked ? (filter.value ?? '1') : '' })} />
              {messageAt(filter.label)}
            </label>
          );
        }
        if (filter.type === 'period') {
          const [from, to] = paramsOf(filter) as [string, string];
          const type = filter.unit === 'time' ? 'datetime-local' : 'date';
          return (
            <fieldset key={filter.name} className="filters__period">
              <legend>{messageAt(filter.label)}</legend>
              <label htmlFor={id(from)}>
                <input id={id(from)} type={type} value={draft[from] ?? ''} onChange={(event) => edit(from, event.target.value)} />
                {text.records.from}
              </label>
              <label htmlFor={id(to)}>
                <input id={id(to)} type={type} value={draft[to] ?? ''} onChange={(event) => edit(to, event.target.value)} />
                {text.records.to}
              </label>
              {filter.today && filter.unit !== 'time' && (
                <button type="button" className="button button--small" onClick={() => apply({ [from]: japanToday(), [to]: japanToday() })}>
                  {text.records.today}
                </button>
              )}
            </fieldset>
          );
        }
        return (
          <label key={filter.name} htmlFor={id(filter.name)}>
            {messageAt(filter.label)}
            <input id={id(filter.name)} type={filter.type === 'search' ? 'search' : 'text'} value={draft[filter.name] ?? ''} onChange={(event) => edit(filter.name, event.target.value)} />
          </label>
        );
      })}
      {sorts && kind.sorts.length > 1 && (
        <label htmlFor={id('sort')}>
          {text.records.sort}
          <select id={id('sort')} value={params.get('sort') ?? kind.sorts[0]!.name} onChange={(event) => apply({ sort: event.target.value })}>
            {kind.sorts.map((sort) => (
              <option key={sort.name} value={sort.name}>
                {messageAt(sort.label)}
              </option>
            ))}
          </select>
        </label>
      )}
      {filters.some((f) => f.type !== 'select' && f.type !== 'flag' && !(f.type === 'text' && f.labels)) && (
        <button type="submit" className="button">
          {text.records.filter}
        </button>
      )}
      {anySet && (
        <button type="button" className="button button--link" onClick={() => onApply(Object.fromEntries([...names.map((n) => [n, '']), ...filters.filter((f) => f.type === 'select' && f.default).map((f) => [f.name, ''])]))}>
          {text.records.clear}
        </button>
      )}
    </form>
  );
}
