import { open } from 'node:fs/promises';

/** The few file operations the journal needs; tests inject a wrapper to count fsyncs. */
export interface AppendFile {
  append(text: string): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export type OpenAppendFile = (path: string) => Promise<AppendFile>;

/** Opens (creating, 0600) a file for appending. */
export const openAppendFile: OpenAppendFile = async (path) => {
  const handle = await open(path, 'a', 0o600);
  return {
    append: async (text) => {
      await handle.appendFile(text, 'utf8');
    },
    sync: () => handle.sync(),
    close: () => handle.close(),
  };
};
