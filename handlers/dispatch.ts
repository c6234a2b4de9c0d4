import type { z } from 'zod';
import { bridgeContract, type BridgeMethod, type BridgeResponse } from '../shared/contract';
import { invalidInput, isPrivacyDeskError, toErrorInfo } from '../shared/errors';
import type { BridgeHandlers } from './types';

export function isBridgeMethod(method: string): method is BridgeMethod {
  // Own keys only: "toString" or "__proto__" must not look like methods.
  return Object.prototype.hasOwnProperty.call(bridgeContract, method);
}

/** An issue can quote the input (e.g. every unrecognised key): the answer stays short whatever was sent. */
const MAX_ISSUE_LENGTH = 300;

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.').slice(0, 100)}: ${issue.message}` : issue.message))
    .map((text) => (text.length > MAX_ISSUE_LENGTH ? `${text.slice(0, MAX_ISSUE_LENGTH)}…` : text))
    .join('; ');
}

/**
 * The one entry point of both transports: checks the method name, parses the
 * input with the method's schema (the handler never sees unparsed input), runs
 * the handler, and turns every failure into a BridgeResponse. Never throws,
 * never returns a stack trace; unknown errors become a generic INTERNAL.
 */
export async function dispatchBridgeCall(handlers: BridgeHandlers, method: string, rawInput: unknown): Promise<BridgeResponse<unknown>> {
  if (!isBridgeMethod(method)) {
    return { ok: false, error: invalidInput(`Privacy Desk has no operation called "${method.slice(0, 80)}". Reload the window; if it persists, the app and its page are out of step.`).toInfo() };
  }
  // A call without an argument means "no options" (e.g. app.info()).
  const parsed = bridgeContract[method].input.safeParse(rawInput === undefined ? {} : rawInput);
  if (!parsed.success) {
    return {
      ok: false,
      error: invalidInput(`The request "${method}" was refused before anything was sent: ${describeIssues(parsed.error.issues)}. Correct the value and try again.`).toInfo(),
    };
  }
  try {
    const handler = handlers[method] as (input: unknown) => Promise<unknown>;
    const value = await handler(parsed.data);
    return { ok: true, value };
  } catch (error) {
    if (!isPrivacyDeskError(error)) {
      // Only the error's kind: an unknown error's message might carry request details.
      console.error(`[privacy-desk] ${method} failed with an unexpected ${error instanceof Error ? error.name : typeof error}`);
    }
    return { ok: false, error: toErrorInfo(error) };
  }
}
