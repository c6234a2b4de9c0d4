import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogShell } from './dialog-shell';

interface LiveConfirmDialogProps {
  open: boolean;
  title: string;
  body: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The lighter confirmation before an act on live data: said in words, one click to go on, no countdown. */
export function LiveConfirmDialog({ open, title, body, confirmLabel, onConfirm, onCancel }: LiveConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <DialogShell open={open} onOpenChange={(next) => (next ? undefined : onCancel())} title={title} tone="live" className="dialog--live-confirm">
      <p className="live-confirm__body">
        <span aria-hidden="true">▲ </span>
        {body}
      </p>
      <div className="dialog__actions">
        {/* Cancel takes the focus: Enter alone never acts on live data. */}
        <button type="button" className="button button--ghost" onClick={onCancel} autoFocus>
          {t('common.cancel')}
        </button>
        <button type="button" className="button button--danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </DialogShell>
  );
}
