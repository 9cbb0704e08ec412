// Statistics for the consortium: counts only, and a count under the floor reads as under the floor (messages/admin.ja.json).
import text from '../../../../messages/admin.ja.json';
import { format } from '../../../shared/format';
import type { Stats } from '../../../shared/admin-api';
import { adminCall } from '../../api';
import { count } from '../../format';
import { Failure, Loading, useLoad } from '../../ui';

const SECTIONS = ['registrationsPerWeek', 'purposes', 'prefectures', 'ageBands', 'desiredMunicipalities'] as const;

export default function StatsScreen() {
  const stats = useLoad(() => adminCall<Stats>('get', '/stats'), 'stats');
  if (stats.loading) return <Loading />;
  if (!stats.data) return <Failure message={stats.error} />;
  const data = stats.data;
  return (
    <>
      <p className="lead">{format(text.stats.lead, { floor: data.floor })}</p>
      {SECTIONS.map((section) => (
        <section key={section} className="card">
          <h2>{text.stats.sections[section]}</h2>
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
                    <td className="num">{count(row.count, data.floor)}</td>
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
