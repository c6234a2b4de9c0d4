import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { appMenuTemplate } from './menu-template';

function roles(template: MenuItemConstructorOptions[]): string[] {
  return template.flatMap((item) => [
    ...(item.role ? [item.role] : []),
    ...(Array.isArray(item.submenu) ? roles(item.submenu) : []),
  ]);
}

describe('appMenuTemplate', () => {
  it('always offers the standard edit actions and quit', () => {
    const found = roles(appMenuTemplate({ isDev: false, isMac: false }));
    expect(found).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'quit']));
  });
  it('offers reload and developer tools in development only', () => {
    expect(roles(appMenuTemplate({ isDev: false, isMac: false }))).not.toContain('toggleDevTools');
    expect(roles(appMenuTemplate({ isDev: false, isMac: true }))).not.toContain('reload');
    expect(roles(appMenuTemplate({ isDev: true, isMac: false }))).toEqual(expect.arrayContaining(['reload', 'toggleDevTools']));
  });
});
