import { describe, expect, it } from 'vitest';
import type { ErasureAction } from '../../shared/users';
import { actionWords } from '../action-words';
import { memoryAudit } from '../test/memory-audit';
import type { FetchLike } from '../types';
import { createErasureGate } from './erasure-gate';
import type { ServiceActs } from './service-acts';
import { connectToService } from './service-client';

// Every switch on an action is exhaustive and refuses anything else: the erase route once sent DELETE for
// any action that was not 'anonymize', and an object lookup of the action's words finds 'constructor'.
const WRONG_ACTIONS: unknown[] = ['anonymise', 'Delete', 'ANONYMIZE', '', 'logout', 'batch', 42, undefined, null, 'constructor', 'toString', '__proto__'];
const profile = { id: 'p', name: 'City portal', baseUrl: 'https://debate.example', applicationName: 'news' };

describe('an action that is not anonymize or delete is never sent', () => {
  it.each(WRONG_ACTIONS)('the acts refuse %j before any request, the token one included', async (action) => {
    const sent: string[] = [];
    const fetch: FetchLike = async (input, init) => {
      sent.push(`${init?.method} ${String(input)}`);
      return new Response(JSON.stringify({ access_token: 'tok-abcdef123', expires_in: 7200, created_at: Math.floor(Date.now() / 1000) }));
    };
    const { acts } = connectToService({ profile, credentials: { apiKey: 'key-0123456789', apiSecret: 'secret-0123456789abcdef' }, fetch });
    await expect(acts.erase(action as ErasureAction, 'bob')).rejects.toMatchObject({ code: 'INVALID_INPUT', outcome: 'not-sent', message: expect.stringMatching(/^Unknown action .*Nothing was sent\.$/) });
    expect(sent).toEqual([]);
  });

  it.each(WRONG_ACTIONS)("the gate's batch entry refuses a job whose action is %j before any entry is written", (action) => {
    const audit = memoryAudit();
    const calls: string[] = [];
    const acts: ServiceActs = {
      erase: async (a, uid) => {
        calls.push(`${a}:${uid}`);
        throw new Error('not reached');
      },
      sendLogout: async (uid) => {
        calls.push(`logout:${uid}`);
        throw new Error('not reached');
      },
    };
    const gate = createErasureGate({ acts, profile, audit, via: 'batch', operator: 'dpo', appVersion: '9.9.9' });
    expect(() => gate.openBatch({ jobId: '20261122-190712-3fa9c1', action: action as ErasureAction, logoutFirst: true })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', outcome: 'not-sent' }));
    expect(audit.entries).toEqual([]);
    expect(calls).toEqual([]);
  });

  it.each(WRONG_ACTIONS)('the words of %j are refused, not looked up', (action) => {
    expect(() => actionWords(action as ErasureAction)).toThrow(/^Unknown action/);
  });

  it('the two actions keep their words', () => {
    expect([actionWords('anonymize').doing, actionWords('delete').doing]).toEqual(['anonymising', 'deleting']);
  });
});
