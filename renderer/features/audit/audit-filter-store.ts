import { create } from 'zustand';
import type { AuditFilter, AuditOperation, AuditStage } from '../../../shared/audit';

/** The filter as the form holds it: dates as the date inputs give them (YYYY-MM-DD), '' for "any". */
export interface AuditFilterForm {
  from: string;
  to: string;
  operation: AuditOperation | '';
  outcome: AuditStage | '';
  profileId: string;
  uid: string;
  reference: string;
}

export const EMPTY_FILTER: AuditFilterForm = { from: '', to: '', operation: '', outcome: '', profileId: '', uid: '', reference: '' };

interface AuditFilterState {
  form: AuditFilterForm;
  setField: <K extends keyof AuditFilterForm>(key: K, value: AuditFilterForm[K]) => void;
  clear: () => void;
}

/** Kept outside the view so the filter survives a trip to another tab. */
export const useAuditFilter = create<AuditFilterState>()((set) => ({
  form: EMPTY_FILTER,
  setField: (key, value) => set((state) => ({ form: { ...state.form, [key]: value } })),
  clear: () => set({ form: EMPTY_FILTER }),
}));

/** The form as the shared filter rule takes it: only what is set; uid and reference as typed, trimmed. */
export function toAuditFilter(form: AuditFilterForm): AuditFilter {
  // Calendar days, as the date inputs give them: the shared rule compares them with each entry's own date.
  const since = form.from;
  const until = form.to;
  const uid = form.uid.trim();
  const reference = form.reference.trim();
  return {
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
    ...(form.operation ? { operation: form.operation } : {}),
    ...(form.outcome ? { outcome: form.outcome } : {}),
    ...(form.profileId ? { profileId: form.profileId } : {}),
    ...(uid ? { uid } : {}),
    ...(reference ? { reference } : {}),
  };
}

export function isFilterActive(form: AuditFilterForm): boolean {
  return Object.keys(toAuditFilter(form)).length > 0;
}
