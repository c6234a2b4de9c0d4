import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRoot, createQueryClient } from './app-root';
import { createDefaultBridgeClient } from './bridge/bridge-client';
import { createDefaultBridgeEventClient } from './bridge/bridge-event-client';
import { createI18n } from './i18n';
import { useUiStore } from './state/ui-store';
import './styles/tokens.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/tables.css';
import './styles/dialogs.css';
import './styles/features.css';
import './styles/find-person.css';
import './styles/audit.css';
import './styles/batch.css';
import './styles/requests.css';
import './styles/conformance.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');

createRoot(root).render(
  <StrictMode>
    <AppRoot bridge={createDefaultBridgeClient()} events={createDefaultBridgeEventClient()} i18n={createI18n(useUiStore.getState().language)} queryClient={createQueryClient()} />
  </StrictMode>,
);
