/** One output stream as the CLI uses it: the process's own, or a string collector in tests. */
export interface CliOutputStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
  hasColors?(): boolean;
}

/**
 * Everything the CLI reads from and writes to outside its arguments. The entry file
 * passes the real process; tests pass their own, so the CLI runs in-process.
 */
export interface CliIo {
  stdout: CliOutputStream;
  stderr: CliOutputStream;
  stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /**
   * Ctrl-C while a batch runs: the listener is called on SIGINT instead of the process ending
   * (cli/main.ts). Returns the function that removes it; with no listener left, Ctrl-C ends the
   * process again. Missing in tests that do not interrupt.
   */
  onInterrupt?(listener: () => void): () => void;
}
