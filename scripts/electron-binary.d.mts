/** Where Electron's binary is, without downloading it (see electron-binary.mjs). */
export function installedElectronBinary(root: string): { path: string } | { reason: string };
