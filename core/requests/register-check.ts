import type { AuditEntryAt, RegisterCheck } from '../../shared/audit';
import type { MessageText } from '../../shared/message-text';
import { msg, wordInEnglish } from '../../shared/messages';
import { sha256Hex } from '../audit-chain';
import type { RegisterLine } from './register-file';
import { storedEventSchema } from './register-events';

/**
 * The request register against the audit trail. Each change writes its event line to requests.jsonl, then an audit
 * entry (action 'request') with the event's number and the SHA-256 of that line, both under the register's lock: so
 * the register's lines and the trail's 'request' entries pair up one to one, in order. A line edited, removed, moved
 * or added outside Privacy Desk breaks that pairing, and the first place it breaks is said. The chain vouches for the
 * entries themselves (core/audit-chain.ts).
 */
export function checkRegister(lines: readonly RegisterLine[], entries: readonly AuditEntryAt[]): RegisterCheck {
  const refs = entries.filter((entry) => entry.action === 'request' && entry.register).map((entry) => ({ line: entry.line, ...entry.register! }));
  const hashes = lines.map((line) => sha256Hex(line.text));
  const broken = (kind: Extract<RegisterCheck, { ok: false }>['kind'], line: number, text: MessageText): RegisterCheck => ({ ok: false, events: lines.length, kind, line, message: wordInEnglish(text), text });
  for (let i = 0; i < Math.max(lines.length, refs.length); i++) {
    const stored = lines[i];
    const ref = refs[i];
    if (!stored) {
      const missing = ref as (typeof refs)[number];
      return broken('removed', (lines[lines.length - 1]?.line ?? 0) + 1, msg('register.removed', { event: missing.event, change: missing.change, id: missing.requestId, auditLine: missing.line }));
    }
    if (!storedEventSchema.safeParse(safeJson(stored.text)).success) return broken('corrupt', stored.line, msg('register.corrupt', { line: stored.line }));
    if (!ref) return broken('unaudited', stored.line, msg('register.unaudited', { line: stored.line }));
    if (hashes[i] === ref.sha256) continue;
    // Not the line recorded here: the recorded one elsewhere is a move; this line recorded later, one removed; else an edit.
    if (hashes.includes(ref.sha256)) return broken('reordered', stored.line, msg('register.reordered', { line: stored.line, auditLine: refs.find((r) => r.sha256 === hashes[i])?.line ?? ref.line }));
    if (refs.slice(i + 1).some((later) => later.sha256 === hashes[i])) return broken('removed', stored.line, msg('register.removed', { event: ref.event, change: ref.change, id: ref.requestId, auditLine: ref.line }));
    return broken('edited', stored.line, msg('register.edited', { line: stored.line, auditLine: ref.line }));
  }
  return { ok: true, events: lines.length };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
