import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import type { BridgeClient } from '../shared/contract';
import { App } from './app';
import { BridgeProvider } from './bridge/bridge-context';
import type { BridgeEventClient } from './bridge/bridge-event-client';

/**
 * Nothing is retried behind the operator's back: the main process already
 * retries the safe list call, and erasures must never be repeated silently.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

export function AppRoot({ bridge, events, i18n, queryClient }: { bridge: BridgeClient; events?: BridgeEventClient; i18n: I18n; queryClient: QueryClient }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <BridgeProvider client={bridge} {...(events ? { events } : {})}>
          <App />
        </BridgeProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
