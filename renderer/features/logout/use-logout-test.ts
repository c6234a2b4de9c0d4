import { useMutation, useQueryClient } from '@tanstack/react-query';
import { judgeLogout, type LogoutOptions, type LogoutResult } from '../../../shared/logout';
import type { ErrorInfo } from '../../../shared/errors';
import { toErrorInfo } from '../../../shared/errors';
import type { ProfileView } from '../../../shared/contract';
import { useBridge } from '../../bridge/bridge-context';
import { queryKeys } from '../../state/query-keys';
import { useLogoutStore, type LogoutCase, type LogoutTestRecord } from './logout-store';

export interface LogoutTestOutcome {
  testCase: LogoutCase;
  uid: string;
  result?: LogoutResult;
  /** What the bridge threw, kept as thrown: converting it here and again in ErrorPanel turned every code into INTERNAL. */
  failure?: unknown;
  /** The same failure read once, for the verdict and the history. */
  error?: ErrorInfo;
  /** Sandbox session counts around the send; absent off the sandbox. */
  sessionsBefore?: number;
  sessionsAfter?: number;
}

/** How the service treated the token, and what that proves for this case (shared/logout.ts judgeLogout: a network error or a 5xx proves nothing). */
export function judgement(outcome: Pick<LogoutTestOutcome, 'testCase' | 'result' | 'error'>): Pick<LogoutTestRecord, 'answer' | 'verdict'> {
  const reply = outcome.result ?? { outcome: outcome.error?.outcome ?? 'unknown', errorCode: outcome.error?.code, status: outcome.error?.status };
  return judgeLogout(outcome.testCase, reply);
}

/** Sends one logout (valid or a negative case), with sandbox session counts before and after, and records it. */
export function useLogoutTest(profile: ProfileView) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const record = useLogoutStore((s) => s.record);

  const sessionCount = async (uid: string): Promise<number | undefined> => {
    if (!profile.isLocal) return undefined;
    try {
      const state = await bridge['sandbox.userState']({ profileId: profile.id, uid });
      return state ? state.sessionCount : undefined;
    } catch {
      return undefined;
    }
  };

  return useMutation({
    mutationFn: async ({ uid, options, testCase }: { uid: string; options: LogoutOptions; testCase: LogoutCase }): Promise<LogoutTestOutcome> => {
      const sessionsBefore = await sessionCount(uid);
      const outcome: LogoutTestOutcome = { testCase, uid, sessionsBefore };
      try {
        const sendOptions = testCase === 'valid' ? options : { ...options, negativeCase: testCase };
        outcome.result = await bridge['logout.send']({ profileId: profile.id, uid, options: sendOptions });
      } catch (error) {
        outcome.failure = error;
        outcome.error = toErrorInfo(error);
      }
      outcome.sessionsAfter = await sessionCount(uid);
      return outcome;
    },
    onSuccess: (outcome) => {
      record({
        at: new Date().toISOString(),
        profileId: profile.id,
        uid: outcome.uid,
        testCase: outcome.testCase,
        status: outcome.result?.status ?? outcome.error?.status,
        errorCode: outcome.result?.errorCode ?? outcome.error?.code,
        ...judgement(outcome),
      });
      void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
      void queryClient.invalidateQueries({ queryKey: ['sandbox-user-state', profile.id] });
    },
  });
}
