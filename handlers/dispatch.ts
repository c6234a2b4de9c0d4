import type { z } from 'zod';
import { bridgeContract, type BridgeMethod, type BridgeResponse } from '../shared/contract';
import { invalidInput, isPrivacyDeskError, PrivacyDeskError, toErrorInfo } from '../shared/errors';
import type { MessageText } from '../shared/message-text';
import { msg } from '../shared/messages';
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
 * Bad input, before anything is sent: a rule's own message when it has one (shared/logout.ts extra claims),
 * else which fields are not valid; zod's own words about them follow as a technical detail (they are English).
 */
function inputRefusal(method: string, issues: readonly z.core.$ZodIssue[]): PrivacyDeskError {
  const own = issues.map((issue) => (issue as { params?: { text?: MessageText } }).params?.text).find((text) => text !== undefined);
  const fields = [...new Set(issues.map((issue) => issue.path.map(String).join('.').slice(0, 100) || '/'))].slice(0, 5).join(', ');
  const text = own ? msg('bridge.badInputBecause', { method, problem: own }) : msg('bridge.badInput', { method, fields });
  return new PrivacyDeskError({ code: 'INVALID_INPUT', text, quote: { from: 'system', text: describeIssues(issues) } });
}

/**
 * The one entry point of both transports: checks the method name, parses the
 * input with the method's schema (the handler never sees unparsed input), runs
 * the handler, and turns every failure into a BridgeResponse. Never throws,
 * never returns a stack trace; unknown errors become a generic INTERNAL.
 */
export async function dispatchBridgeCall(handlers: BridgeHandlers, method: string, rawInput: unknown): Promise<BridgeResponse<unknown>> {
  if (!isBridgeMethod(method)) {
    return { ok: false, error: invalidInput(msg('bridge.unknownMethod', { method: method.slice(0, 80) })).toInfo() };
  }
  // A call without an argument means "no options" (e.g. app.info()).
  const parsed = bridgeContract[method].input.safeParse(rawInput === undefined ? {} : rawInput);
  if (!parsed.success) {
    return { ok: false, error: inputRefusal(method, parsed.error.issues).toInfo() };
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
