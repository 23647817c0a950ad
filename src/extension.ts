import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FeatureContext } from './features/context';
import { features } from './features';
import { ReviewIndex } from './features/comments/reviewIndex';
import { ThreadFiles } from './features/threads/persistence';
import { ThreadStore } from './features/threads/store';
import { createCommandRunner } from './platform/commands';
import { readConfig } from './platform/config';
import { createLog } from './platform/log';

/** What `activate()` returns: used by the integration tests and by other extensions. */
export interface KernelReviewApi {
  readonly store: ThreadStore;
  readonly index: ReviewIndex;
  readonly [feature: string]: unknown;
  readonly onDidReportError: FeatureContext['commands']['onDidReportError'];
  /** Milliseconds `activate()` took. */
  readonly activationMs: number;
  /** Milliseconds per feature, e.g. `threads 1.2, comments 0.4`. */
  readonly activationDetail: string;
  /** Folder of the persisted threads. */
  readonly storagePath: string;
}

export function activate(context: vscode.ExtensionContext): KernelReviewApi | undefined {
  const t0 = performance.now();
  const log = createLog();
  context.subscriptions.push(log);
  try {
    const storage = (context.storageUri ?? context.globalStorageUri).fsPath;
    const store = new ThreadStore(new ThreadFiles(path.join(storage, 'threads')), log);
    const commands = createCommandRunner(log, context.subscriptions);
    const own = <T extends vscode.Disposable>(d: T): T => (context.subscriptions.push(d), d);
    own(store);
    const index = own(new ReviewIndex(store, log));
    const api: Record<string, unknown> = {};
    const ctx: FeatureContext = {
      extension: context,
      log,
      store,
      commands,
      index,
      api,
      config: () => readConfig(),
      own,
      command: (id, title, fn) => void own(commands.register(id, title, fn)),
    };
    const times: string[] = [];
    for (const f of features) {
      const t = performance.now();
      f.register(ctx);
      times.push(`${f.name} ${(performance.now() - t).toFixed(1)}`);
    }
    const activationMs = performance.now() - t0;
    log.info('activate', `activated in ${activationMs.toFixed(1)} ms (${times.join(', ')} ms)`);
    void store.whenReady().then(() => index.refresh());
    return { ...api, store, index, onDidReportError: commands.onDidReportError, activationMs, activationDetail: times.join(', '), storagePath: storage };
  } catch (err) {
    log.error('activate', 'activation failed', err);
    const msg = `Kernel Review could not start: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
    void vscode.window.showErrorMessage(msg, 'Open Log').then((pick) => pick && log.show());
    return undefined;
  }
}

export function deactivate(): void {}

/** Entry point of the import worker thread (see features/threads/importWorker.ts). */
export { runImportWorker } from './features/threads/importWorker';
