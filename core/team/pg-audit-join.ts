import type { ImportedTrail } from '../../shared/audit';
import type { MessageText } from '../../shared/message-text';
import { msg } from '../../shared/messages';
import { canonicalJson } from '../audit-chain';
import { AUDIT_FIELDS } from '../audit-file';
import { readingOf } from '../audit-reader';
import { parseBoundedJson } from '../bounded-json';

/** The fields an imported entry copies from its local line (what it is about), compared with that line by verify: every audit field but the team's own. */
const TEAM_FIELDS: readonly string[] = ['desktop', 'dbRole', 'imported', 'importedFrom'];
export const IMPORTED_FIELDS = AUDIT_FIELDS.filter((field) => !TEAM_FIELDS.includes(field));

/** Where a join does not hold: the line to name and why. */
export interface JoinBreak {
  line: number;
  text: MessageText;
}

interface OpenImport {
  line: number;
  from: ImportedTrail;
  texts: string[];
  problem: MessageText | null;
}

/**
 * The joins of imported local trails in the team chain (core/team/pg-audit-import.ts), checked as the team trail is
 * walked in order: the entry recording `importedFrom` opens a run of `lines` imported entries; each carries its local
 * line, whose fields it must repeat; once the run is whole, its local lines read as a trail must verify and hash to
 * the recorded head. The first join that does not hold is kept.
 */
export function importJoins() {
  let open: OpenImport | null = null;
  let broken: JoinBreak | null = null;

  const close = (current: OpenImport): void => {
    if (broken) return;
    const fail = (problem: MessageText) => {
      broken = { line: current.line, text: msg('team.join.broken', { line: current.line, count: current.from.lines, hash: current.from.headHash ?? '-', problem }) };
    };
    if (current.problem) return fail(current.problem);
    if (current.texts.length < current.from.lines) return fail(msg('team.join.short', { found: current.texts.length }));
    const verdict = readingOf(`${current.texts.join('\n')}\n`).verdict;
    if (!verdict.ok) return fail(msg('team.join.local', { problem: verdict.text ?? msg('code.INTERNAL') }));
    if (verdict.headHash !== current.from.headHash || verdict.entries !== current.from.entries) return fail(msg('team.join.head', { found: verdict.headHash ?? '-' }));
  };

  return {
    /** One entry of the team trail, in order (`line`: its place in the reading). */
    see(line: number, stored: Record<string, unknown>): void {
      const from = stored.importedFrom as ImportedTrail | undefined;
      const imported = stored.imported as { text: string } | undefined;
      if (from) {
        if (open) close(open);
        open = { line, from, texts: [], problem: null };
      }
      if (!imported) {
        if (open && !from) {
          close(open);
          open = null;
        }
        return;
      }
      if (!open) {
        broken ??= { line, text: msg('team.join.stray', { line }) };
        return;
      }
      open.texts.push(imported.text);
      if (!open.problem) {
        const local = lastLineOf(imported.text);
        const differs = IMPORTED_FIELDS.find((field) => canonicalJson(stored[field]) !== canonicalJson(local?.[field]));
        if (!local || differs) open.problem = msg('team.join.field', { entry: line, field: differs ?? 'line' });
      }
      if (open.texts.length === open.from.lines) {
        close(open);
        open = null;
      }
    },
    /** The first join that does not hold, once every entry was seen; null when all hold. */
    finish(): JoinBreak | null {
      if (open) close(open);
      open = null;
      return broken;
    },
  };
}

/** The local line an imported text ends with (blank lines may come before it), parsed; null when it is no object. */
function lastLineOf(text: string): Record<string, unknown> | null {
  const parsed = parseBoundedJson(text.slice(text.lastIndexOf('\n') + 1));
  return parsed.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value) ? (parsed.value as Record<string, unknown>) : null;
}
