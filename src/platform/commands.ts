import * as vscode from 'vscode';
import { describeError, isCancellation } from './errors';
import type { Log } from './log';

/** What the command wrapper reports: tests and the status bar can listen. */
export interface ErrorReport {
  command: string;
  message: string;
}

export interface CommandRunner {
  /** Registers `id`; every error `fn` throws becomes one sentence with an "Open Log" button. */
  register(id: string, title: string, fn: (...args: any[]) => unknown): vscode.Disposable;
  readonly onDidReportError: vscode.Event<ErrorReport>;
}

export function createCommandRunner(log: Log, owner: vscode.Disposable[]): CommandRunner {
  const emitter = new vscode.EventEmitter<ErrorReport>();
  owner.push(emitter);
  const report = (id: string, title: string, err: unknown): void => {
    if (isCancellation(err)) {
      log.info('command', `${id}: cancelled`);
      return;
    }
    const message = describeError(err, title);
    log.error('command', `${id}: ${message}`, err);
    emitter.fire({ command: id, message });
    // A mail that could not be read but names its Message-ID (line breaks lost): offer the intact thread.
    const fetchable = /fetch '(<[^<>'\s]+>)'/.exec(message)?.[1];
    const actions = fetchable ? ['Fetch Thread', 'Open Log'] : ['Open Log'];
    void vscode.window.showErrorMessage(message, ...actions).then((pick) => {
      if (pick === 'Fetch Thread') void vscode.commands.executeCommand('kernelReview.fetchThread', fetchable);
      else if (pick) log.show();
    });
  };
  return {
    onDidReportError: emitter.event,
    register(id, title, fn) {
      return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await fn(...args);
        } catch (err) {
          report(id, title, err);
          return undefined;
        }
      });
    },
  };
}
