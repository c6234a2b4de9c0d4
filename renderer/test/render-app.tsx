import { render } from '@testing-library/react';
import { AppRoot, createQueryClient } from '../app-root';
import { createI18n } from '../i18n';
import { useUiStore } from '../state/ui-store';
import { useNotices } from '../state/notices-store';
import { useErasedUsers } from '../features/erasure/erased-users';
import { createFakeBridge, type FakeBridgeOptions } from './fake-bridge';

const initialUi = useUiStore.getState();

/** Renders the whole console over a fresh fake bridge, in English, with fresh UI state. */
export function renderApp(options: FakeBridgeOptions = {}) {
  useUiStore.setState({ ...initialUi, language: 'en', visibleFields: [], usersPage: null, perPage: 10, erasure: null, view: 'users' }, true);
  useNotices.setState({ notices: [] });
  useErasedUsers.setState({ marks: [] });
  const fake = createFakeBridge(options);
  const queryClient = createQueryClient();
  const utils = render(<AppRoot bridge={fake.bridge} events={fake.events} i18n={createI18n('en')} queryClient={queryClient} />);
  return { ...utils, fake, queryClient };
}
