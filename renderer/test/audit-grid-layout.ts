import { AUDIT_ROW_HEIGHT } from '../features/audit/audit-table';

/**
 * jsdom lays nothing out: gives the audit table's scroll box the height of ten rows, so the
 * virtualiser has a window to fill. Returns the function that puts jsdom back.
 */
export function giveAuditGridAHeight(): () => void {
  const descriptor = Object.getOwnPropertyDescriptor(Element.prototype, 'clientHeight')!;
  Object.defineProperty(Element.prototype, 'clientHeight', {
    configurable: true,
    get(this: Element) {
      return this.classList.contains('audit-grid__scroll') ? 10 * AUDIT_ROW_HEIGHT : 0;
    },
  });
  return () => Object.defineProperty(Element.prototype, 'clientHeight', descriptor);
}
