import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BridgeInput } from '../../../shared/contract';
import type { RequestChangeInput, RequestFilter } from '../../../shared/requests';
import { useBridge } from '../../bridge/bridge-context';

/** The register's server state; every change refreshes all of it (lists, the badge, the page). */
export const requestKeys = {
  all: ['requests'] as const,
  list: (filter: RequestFilter) => ['requests', 'list', filter] as const,
  one: (id: string, withContact: boolean) => ['requests', 'one', id, withContact] as const,
  acts: (id: string) => ['requests', 'acts', id] as const,
  dueCount: ['requests', 'due-count'] as const,
  settings: ['requests', 'settings'] as const,
};

/** A deadline moves with the day: the lists are read again at least every minute while shown. */
const REFRESH_MS = 60_000;

export function useRequestList(filter: RequestFilter) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: requestKeys.list(filter),
    queryFn: async () => {
      const { requests } = await bridge['requests.list']({ filter });
      // Requests registered elsewhere (the CLI) appear in the list: the tab's count is read again to agree with it.
      void queryClient.invalidateQueries({ queryKey: requestKeys.dueCount });
      return requests;
    },
    refetchInterval: REFRESH_MS,
  });
}

export function useDueCount() {
  const bridge = useBridge();
  return useQuery({ queryKey: requestKeys.dueCount, queryFn: () => bridge['requests.dueCount']({}), refetchInterval: REFRESH_MS });
}

export function useRequest(id: string, withContact: boolean) {
  const bridge = useBridge();
  return useQuery({ queryKey: requestKeys.one(id, withContact), queryFn: () => bridge['requests.get']({ id, withContact }) });
}

export function useRequestActs(id: string) {
  const bridge = useBridge();
  return useQuery({ queryKey: requestKeys.acts(id), queryFn: () => bridge['requests.acts']({ id }) });
}

export function useRegisterSettings() {
  const bridge = useBridge();
  return useQuery({ queryKey: requestKeys.settings, queryFn: () => bridge['requests.settings']({}), staleTime: Infinity });
}

/** One change to a request; on success the whole register is read again. */
export function useApplyChange(id: string) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: RequestChangeInput) => bridge['requests.apply']({ id, change }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: requestKeys.all }),
  });
}

export function useCreateRequest() {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BridgeInput<'requests.create'>) => bridge['requests.create'](input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: requestKeys.all }),
  });
}
