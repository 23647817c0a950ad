import * as vscode from 'vscode';

/** Component tags used in the log, e.g. `[apply] git am …`. */
export type Component = 'activate' | 'import' | 'store' | 'apply' | 'git' | 'comments' | 'tree' | 'nav' | 'page' | 'command' | 'reply' | 'lore';

/** The "Kernel Review" log channel, with a component tag on every line. */
export interface Log extends vscode.Disposable {
  trace(c: Component, msg: string): void;
  info(c: Component, msg: string): void;
  warn(c: Component, msg: string): void;
  error(c: Component, msg: string, err?: unknown): void;
  show(): void;
}

export function createLog(): Log {
  const ch = vscode.window.createOutputChannel('Kernel Review', { log: true });
  return {
    trace: (c, m) => ch.trace(`[${c}] ${m}`),
    info: (c, m) => ch.info(`[${c}] ${m}`),
    warn: (c, m) => ch.warn(`[${c}] ${m}`),
    error: (c, m, err) => ch.error(`[${c}] ${m}${err instanceof Error && err.stack ? `\n${err.stack}` : ''}`),
    show: () => ch.show(true),
    dispose: () => ch.dispose(),
  };
}
