import { requestActs, unlinkedActIds } from '../core/requests/request-acts';
import { DUE_SOON_DAYS } from '../shared/requests';
import type { AreaHandlers, HandlerContext } from './types';

type RequestMethods = 'requests.list' | 'requests.get' | 'requests.create' | 'requests.apply' | 'requests.acts' | 'requests.dueCount' | 'requests.settings' | 'requests.saveSettings' | 'requests.answerPack';

/** The request register for the window: the core computes every deadline and refuses what does not apply; these only map. */
export function requestHandlers({ desk }: HandlerContext): AreaHandlers<RequestMethods> {
  return {
    'requests.list': async ({ filter }) => ({ requests: await desk.requests.list(filter) }),
    'requests.get': ({ id, withContact }) => desk.requests.get(id, { withContact }),
    'requests.create': (input) => desk.requests.create(input),
    'requests.apply': ({ id, change }) => desk.requests.apply(id, change),
    'requests.acts': async ({ id }) => {
      const request = await desk.requests.get(id);
      const { entries } = await desk.readAudit();
      return { lines: requestActs(entries, request.links), unlinkedActIds: unlinkedActIds(entries, request.id, request.links) };
    },
    'requests.dueCount': async () => {
      const due = await desk.requests.list({ status: 'open', dueWithinDays: DUE_SOON_DAYS });
      const overdue = due.filter((request) => request.clock.state === 'overdue').length;
      return { overdue, dueSoon: due.length - overdue };
    },
    'requests.settings': () => desk.requests.settings(),
    'requests.saveSettings': (changes) => desk.requests.saveSettings(changes),
    'requests.answerPack': async ({ id, language, withContact }) => {
      const pack = await desk.requests.answerPack(id, { language, withContact });
      return {
        receipt: { fileName: pack.fileNames.receipt, mimeType: 'application/pdf', contentBase64: pack.receiptPdf.toString('base64') },
        letter: { fileName: pack.fileNames.letter, mimeType: 'text/plain;charset=utf-8', content: pack.letter.text },
        acts: pack.acts,
        headHash: pack.headHash,
        chainVerified: pack.chainVerified,
      };
    },
  };
}
