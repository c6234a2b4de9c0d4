import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

interface DialogShellProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  tone?: 'default' | 'danger' | 'live';
  /** While something irreversible is in flight the dialog cannot be dismissed. */
  locked?: boolean;
  className?: string;
}

/** Radix dialog with the app's frame: focus is trapped inside and restored on close. */
export function DialogShell({ open, onOpenChange, title, description, children, tone = 'default', locked, className = '' }: DialogShellProps) {
  const block = (event: Event) => {
    if (locked) event.preventDefault();
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (locked && !next ? undefined : onOpenChange(next))}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className={`dialog dialog--${tone} ${className}`}
          onEscapeKeyDown={block}
          onPointerDownOutside={block}
          onInteractOutside={block}
        >
          <Dialog.Title className="dialog__title">{title}</Dialog.Title>
          {description ? (
            <Dialog.Description className="dialog__description">{description}</Dialog.Description>
          ) : (
            <Dialog.Description className="visually-hidden">{title}</Dialog.Description>
          )}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
