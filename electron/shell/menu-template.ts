import type { MenuItemConstructorOptions } from 'electron';

/**
 * The application menu: standard edit roles (so copy/paste work in the
 * fields), quit, and — in development only — reload and developer tools.
 */
export function appMenuTemplate(options: { isDev: boolean; isMac: boolean }): MenuItemConstructorOptions[] {
  const template: MenuItemConstructorOptions[] = [];
  if (options.isMac) template.push({ role: 'appMenu' });
  else template.push({ label: '&File', submenu: [{ role: 'quit' }] });
  template.push({
    label: '&Edit',
    submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }],
  });
  if (options.isDev) {
    template.push({ label: '&View', submenu: [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }] });
  }
  if (options.isMac) template.push({ role: 'windowMenu' });
  return template;
}
