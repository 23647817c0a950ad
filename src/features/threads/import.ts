import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { InputError, type ReviewComment, type Thread } from '../../core/model';
import { CancelledError } from '../../platform/errors';
import type { FeatureContext } from '../context';
import type { StoredThread } from './model';

/** The mail pipeline, loaded on first import so that activation does not pay for mailparser & co. */
const pipeline = () => ({
  ...(require('../../core/load') as typeof import('../../core/load')),
  ...(require('../../core/review') as typeof import('../../core/review')),
});

/** Yields to the event loop so other extensions and the UI protocol keep running during big imports. */
const yieldNow = () => new Promise<void>((r) => setImmediate(r));

/**
 * Imports mail files (mbox, .mbox.gz, .eml, Maildir) into the store, with a cancellable progress
 * notification. Bad input throws an InputError and leaves the store as it was.
 */
export async function importInputs(ctx: FeatureContext, inputs: string[]): Promise<StoredThread[]> {
  for (const input of inputs) {
    await fs.stat(input).catch(() => {
      throw new InputError(input, 'does not exist or cannot be read');
    });
  }
  const label = inputs.length === 1 ? path.basename(inputs[0]) : `${inputs.length} files`;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Importing ${label}`, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        const t0 = Date.now();
        let threads: Thread[];
        try {
          threads = await pipeline().loadThreads(inputs, {
            signal: abort.signal,
            onProgress: (n) => progress.report({ message: `${n} messages read` }),
          });
        } catch (e) {
          if (token.isCancellationRequested) throw new CancelledError();
          throw e;
        }
        if (threads.length === 0) throw new InputError(inputs.join(', '), 'holds no mail messages');
        const items: { thread: Thread; comments: ReviewComment[] }[] = [];
        let last = Date.now();
        for (const [i, thread] of threads.entries()) {
          if (token.isCancellationRequested) throw new CancelledError();
          items.push({ thread, comments: pipeline().extractComments(thread) });
          if (Date.now() - last > 30) {
            progress.report({ message: `finding comments: thread ${i + 1} of ${threads.length}` });
            await yieldNow();
            last = Date.now();
          }
        }
        progress.report({ message: 'saving' });
        const stored = await ctx.store.add(items, inputs);
        const comments = items.reduce((n, t) => n + t.comments.length, 0);
        ctx.log.info('import', `${label}: ${threads.length} thread(s), ${comments} comment(s) in ${Date.now() - t0} ms`);
        return stored;
      } finally {
        sub.dispose();
      }
    },
  );
}

/** The file picker of "Import Mbox…". */
export async function pickInputs(): Promise<string[] | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title: 'Import Mbox',
    openLabel: 'Import',
    canSelectFiles: true,
    canSelectFolders: true,
    canSelectMany: true,
    filters: { 'Mail (mbox, eml, gz)': ['mbox', 'eml', 'gz', 'mbx', 'txt'], 'All files': ['*'] },
  });
  return picked?.map((u) => u.fsPath);
}
