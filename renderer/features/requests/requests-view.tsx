import { NewRequestForm } from './new-request-form';
import { RequestPage } from './request-page';
import { useRequestsNav } from './request-nav-store';
import { RequestsList } from './requests-list';

/** The Requests tab: the register's list, a new request, or one request's page. */
export function RequestsView() {
  const place = useRequestsNav((s) => s.place);
  if (place.kind === 'new') return <NewRequestForm />;
  if (place.kind === 'request') return <RequestPage key={place.id} id={place.id} />;
  return <RequestsList />;
}
