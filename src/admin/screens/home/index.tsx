// Home: the screens the operator's role opens, with what waits (pending applications, open
// inquiries, open correction and deletion requests) for the office.
import { Link } from 'react-router-dom';
import text from '../../../../messages/admin.ja.json';
import { format } from '../../../shared/format';
import type { ApplicationItem, InquiryItem, Page, RequestItem } from '../../../shared/admin-api';
import { adminCall } from '../../api';
import { menuFor, mayOpen } from '../../catalogue';
import { boundedCount } from '../../format';
import { useSession } from '../../session';
import { useLoad } from '../../ui';

export default function HomeScreen() {
  const { operator } = useSession();
  const office = !!operator && mayOpen(operator.role, 'applications');
  const waiting = useLoad(
    async () =>
      office
        ? {
            applications: await adminCall<Page<ApplicationItem>>('get', '/applications', { query: { status: 'pending', page: 1, size: 1 } }),
            inquiries: await adminCall<Page<InquiryItem>>('get', '/inquiries', { query: { status: 'open', page: 1, size: 1 } }),
            requests: await adminCall<Page<RequestItem>>('get', '/requests', { query: { status: 'open', page: 1, size: 1 } }),
          }
        : undefined,
    String(office),
  );
  if (!operator) return null;
  return (
    <>
      <p className="lead">{format(text.home.lead, { name: operator.name })}</p>
      {waiting.data && (
        <ul className="tiles">
          <li>
            <Link className="tile" to="/applications?status=pending">
              <span className="tile__count">{boundedCount(waiting.data.applications)}</span>
              {waiting.data.applications.bounded ? text.home.pendingApplicationsBound : text.home.pendingApplications}
            </Link>
          </li>
          <li>
            <Link className="tile" to="/inquiries?status=open">
              <span className="tile__count">{boundedCount(waiting.data.inquiries)}</span>
              {waiting.data.inquiries.bounded ? text.home.openInquiriesBound : text.home.openInquiries}
            </Link>
          </li>
          <li>
            <Link className="tile" to="/requests?status=open">
              <span className="tile__count">{boundedCount(waiting.data.requests)}</span>
              {waiting.data.requests.bounded ? text.home.openRequestsBound : text.home.openRequests}
            </Link>
          </li>
        </ul>
      )}
      <h2>{text.home.menu}</h2>
      <ul className="menu-list">
        {menuFor(operator.role)
          .filter((page) => page.path !== '')
          .map((page) => (
            <li key={page.path}>
              <Link to={`/${page.path}`}>{page.title}</Link>
              <span className="menu-list__hint">{(text.home.hints as Record<string, string>)[page.screen] ?? ''}</span>
            </li>
          ))}
      </ul>
    </>
  );
}
