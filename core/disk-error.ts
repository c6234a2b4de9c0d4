import { PrivacyDeskError } from '../shared/errors';
import type { MessageText } from '../shared/message-text';
import { msg, type MessageId } from '../shared/messages';

// Why, for each error code the disk reports (the code itself is quoted as the system's words).
const WHY: Record<string, MessageId> = {
  ENOSPC: 'audit.why.diskFull',
  SHORT_WRITE: 'audit.why.fullOrLimit',
  EDQUOT: 'audit.why.quota',
  EACCES: 'audit.why.permission',
  EPERM: 'audit.why.permission',
  EROFS: 'audit.why.readOnly',
  EISDIR: 'audit.why.folderInTheWay',
  EIO: 'audit.why.ioError',
};

const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'EISDIR']);

/**
 * Why a write failed and what fixes it, from what the file system threw. `tooBig`: the words for EFBIG
 * (a file size limit), which depend on the file. A failure that is not the disk's says so.
 */
export function diskProblem(error: unknown, tooBig: MessageId = 'file.why.tooBig'): { why: MessageText; fix: MessageText; systemCode?: string } {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string') return { why: msg('audit.why.unexpected'), fix: msg('audit.fix.unexpected') };
  const why = code === 'EFBIG' ? tooBig : (WHY[code] ?? 'audit.why.other');
  return { why: msg(why as 'audit.why.other'), fix: msg(NOT_WRITABLE.has(code) ? 'audit.fix.writable' : 'audit.fix.space'), systemCode: code };
}

/** FILE_WRITE_FAILED for a file Privacy Desk writes besides the audit trail (a batch's results, an export): typed, with why and what to do. */
export function fileNotWritten(path: string, error: unknown): PrivacyDeskError {
  const { why, fix, systemCode } = diskProblem(error);
  return new PrivacyDeskError({ code: 'FILE_WRITE_FAILED', text: msg('file.notWritten', { path, why, fix }), ...(systemCode ? { quote: { from: 'system', text: systemCode } } : {}) }, { cause: error });
}
