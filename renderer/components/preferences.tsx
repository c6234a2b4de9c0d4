import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, THEMES, useUiStore, type Language, type ThemeOverride } from '../state/ui-store';

export function LanguageSwitcher() {
  const { t } = useTranslation();
  const id = useId();
  const language = useUiStore((s) => s.language);
  const setLanguage = useUiStore((s) => s.setLanguage);
  return (
    <div className="header-control">
      <label htmlFor={id} className="header-control__label">
        {t('header.language')}
      </label>
      <select id={id} className="select" value={language} onChange={(event) => setLanguage(event.target.value as Language)}>
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {t(`languages.${code}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

const THEME_LABEL = { system: 'header.themeSystem', light: 'header.themeLight', dark: 'header.themeDark' } as const;

export function ThemeSwitcher() {
  const { t } = useTranslation();
  const id = useId();
  const theme = useUiStore((s) => s.theme);
  const setTheme = useUiStore((s) => s.setTheme);
  return (
    <div className="header-control">
      <label htmlFor={id} className="header-control__label">
        {t('header.theme')}
      </label>
      <select id={id} className="select" value={theme} onChange={(event) => setTheme(event.target.value as ThemeOverride)}>
        {THEMES.map((value) => (
          <option key={value} value={value}>
            {t(THEME_LABEL[value])}
          </option>
        ))}
      </select>
    </div>
  );
}
