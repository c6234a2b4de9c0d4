import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyValue } from '../../components/empty-value';
import { useUiStore } from '../../state/ui-store';

/**
 * Anonymise / Delete / Test logout for one uid; named with the uid so screen readers hear which user.
 * In a table row (iconsOnly) each is an icon button whose word shows beside it on hover and on keyboard
 * focus, so uid, name and e-mail keep the row's room; elsewhere (the detail panel) they are worded buttons.
 */
export function RowActions({ uid, compact = true, iconsOnly = false }: { uid: string | null; compact?: boolean; iconsOnly?: boolean }) {
  const { t } = useTranslation();
  const openErasure = useUiStore((s) => s.openErasure);
  const testLogout = useUiStore((s) => s.testLogout);
  if (uid === null) return <EmptyValue />;
  const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();
  const size = compact ? 'button--small' : '';
  const actions = [
    { key: 'anonymize', tone: '', label: t('users.anonymize'), name: t('users.rowAnonymize', { uid }), icon: ANONYMISE_ICON, act: () => openErasure({ action: 'anonymize', uid }) },
    { key: 'delete', tone: 'button--danger-ghost', label: t('users.delete'), name: t('users.rowDelete', { uid }), icon: DELETE_ICON, act: () => openErasure({ action: 'delete', uid }) },
    { key: 'logout', tone: 'button--ghost', label: t('users.testLogout'), name: t('users.rowTestLogout', { uid }), icon: LOGOUT_ICON, act: () => testLogout(uid) },
  ];
  return (
    <div className={`row-actions ${iconsOnly ? 'row-actions--icons' : ''}`} onClick={stop}>
      {actions.map((action) =>
        iconsOnly ? (
          <button key={action.key} type="button" className={`button ${action.tone} ${size} row-action row-action--${action.key}`} aria-label={action.name} onClick={action.act}>
            {action.icon}
            {/* The word, for sighted users, on hover and focus; the accessible name (with the uid) is the button's label. */}
            <span className="row-action__tip" aria-hidden="true">
              {action.label}
            </span>
          </button>
        ) : (
          <button key={action.key} type="button" className={`button ${action.tone} ${size}`} aria-label={action.name} onClick={action.act}>
            {action.label}
          </button>
        ),
      )}
    </div>
  );
}

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg className="row-action__icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round">
      {children}
    </svg>
  );
}

/** A person whose face is masked out: the account stays, who it was goes. */
const ANONYMISE_ICON = (
  <Icon>
    <circle cx="8" cy="5" r="2.75" />
    <path d="M2.75 14.25c.6-2.9 2.7-4.5 5.25-4.5s4.65 1.6 5.25 4.5" />
    <path d="M2 2l12 12" />
  </Icon>
);

/** A waste bin. */
const DELETE_ICON = (
  <Icon>
    <path d="M2.5 4h11" />
    <path d="M6 4V2.5h4V4" />
    <path d="M3.75 4l.75 9.5h7l.75-9.5" />
    <path d="M6.5 6.75v4.5M9.5 6.75v4.5" />
  </Icon>
);

/** An arrow leaving through a door: the user's sessions end. */
const LOGOUT_ICON = (
  <Icon>
    <path d="M6.5 2.5h-3v11h3" />
    <path d="M9.5 5l3 3-3 3" />
    <path d="M12.5 8H6" />
  </Icon>
);
