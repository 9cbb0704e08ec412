// Statistics for the consortium: counts only, as of the end of the previous day; a count under
// the floor reads as under the floor, a count hidden so that no other can be worked out by
// subtraction reads as hidden, and the page says why (messages/admin.ja.json, docs/decisions/033).
import text from '../../../../messages/admin.ja.json';
import { format } from '../../../shared/format';
import type { Count, Stats } from '../../../shared/admin-api';
import { adminCall } from '../../api';
import { count } from '../../format';
import { Failure, Loading, useLoad } from '../../ui';

const SECTIONS = ['registrationsPerWeek', 'purposes', 'prefectures', 'ageBands', 'desiredMunicipalities'] as const;

/** A published count as the page shows it. */
function shown(value: number | null, suppressed: Count['suppressed'], floor: number): string {
  return value === null && suppressed === 'complement' ? text.stats.complement : count(value, floor);
}

/** The as-of words (messages/admin.ja.json stats.asOf) from the day the figures are as of (YYYY-MM-DD). */
export function asOfText(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return format(text.stats.asOf, { year: year!, month: month!, day: date! });
}

export default function StatsScreen() {
  const stats = useLoad(() => adminCall<Stats>('get', '/stats'), 'stats');
  if (stats.loading) return <Loading />;
  if (!stats.data) return <Failure message={stats.error} />;
  const data = stats.data;
  return (
    <>
      <p className="lead">
        <strong>{asOfText(data.asOf)}</strong> {text.stats.asOfLead}
      </p>
      <p>{format(text.stats.lead, { floor: data.floor })}</p>
      <p>{format(text.stats.why, { floor: data.floor, complement: text.stats.complement })}</p>
      <p>
        {text.stats.total}<strong>{shown(data.total, data.totalSuppressed, data.floor)}</strong>
      </p>
      {SECTIONS.map((section) => (
        <section key={section} className="card">
          <h2>{text.stats.sections[section]}</h2>
          {section === 'purposes' && <p>{text.stats.purposesNote}</p>}
          {(data[section] ?? []).length === 0 ? (
            <p>{text.common.none}</p>
          ) : (
            <table className="table table--narrow">
              <thead>
                <tr>
                  <th scope="col">{section === 'registrationsPerWeek' ? text.stats.week : text.stats.item}</th>
                  <th scope="col" className="num">
                    {text.stats.count}
                  </th>
                </tr>
              </thead>
              <tbody>
                {data[section].map((row, i) => (
                  <tr key={i}>
                    <td>{'week' in row ? row.week : row.label}</td>
                    <td className="num">{shown(row.count, row.suppressed, data.floor)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ))}
    </>
  );
}
