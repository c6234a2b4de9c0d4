import { useTranslation } from 'react-i18next';
import { LANGUAGES, THEMES, useUiStore } from '../state/ui-store';
import { HeaderSelect } from './header-select';

export function LanguageSwitcher() {
  const { t } = useTranslation();
  const language = useUiStore((s) => s.language);
  const setLanguage = useUiStore((s) => s.setLanguage);
  const options = LANGUAGES.map((code) => ({ value: code, label: t(`languages.${code}`), lang: code }));
  return <HeaderSelect label={t('header.language')} value={language} options={options} onChange={setLanguage} />;
}

const THEME_LABEL = { system: 'header.themeSystem', light: 'header.themeLight', dark: 'header.themeDark' } as const;

export function ThemeSwitcher() {
  const { t } = useTranslation();
  const theme = useUiStore((s) => s.theme);
  const setTheme = useUiStore((s) => s.setTheme);
  const options = THEMES.map((value) => ({ value, label: t(THEME_LABEL[value]) }));
  return <HeaderSelect label={t('header.theme')} value={theme} options={options} onChange={setTheme} />;
}
