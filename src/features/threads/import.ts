import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { InputError, type ReviewComment, type Thread } from '../../core/model';
import { CancelledError } from '../../platform/errors';
import type { FeatureContext } from '../context';
import { importInWorker } from './importWorker';
import type { StoredThread } from './model';

/** The mail pipeline, loaded on first import so that activation does not pay for mailparser & co. */
const pipeline = () => ({
  ...(require('../../core/load') as typeof import('../../core/load')),
  ...(require('../../core/review') as typeof import('../../core/review')),
});

/** Yields to the event loop so other extensions and the UI protocol keep running during big imports. */
const yieldNow = () => new Promise<void>((r) => setImmediate(r));

type Progress = vscode.Progress<{ message?: string; increment?: number }>;

/**
 * Threads and their comments: in a worker thread (the extension host only receives the results, one thread
 * per message); in this thread, in slices, when no worker can be started.
 */
async function readThreads(ctx: FeatureContext, inputs: string[], progress: Progress, signal: AbortSignal): Promise<{ thread: Thread; comments: ReviewComment[] }[]> {
  const items: { thread: Thread; comments: ReviewComment[] }[] = [];
  try {
    await importInWorker(inputs, (m) => {
      if (m.type === 'progress') progress.report({ message: `${m.messages} messages read` });
      else if (m.type === 'thread') {
        items.push({ thread: m.thread, comments: m.comments });
        if (items.length % 50 === 0) progress.report({ message: `${items.length} threads` });
      }
    }, signal);
    return items;
  } catch (e) {
    if (signal.aborted) throw new CancelledError();
    if (e instanceof InputError || items.length) throw e;
    ctx.log.warn('import', `no worker (${e instanceof Error ? e.message : String(e)}); importing in the extension host`);
  }
  let threads: Thread[];
  try {
    threads = await pipeline().loadThreads(inputs, { signal, onProgress: (n) => progress.report({ message: `${n} messages read` }) });
  } catch (e) {
    if (signal.aborted) throw new CancelledError();
    throw e;
  }
  let last = Date.now();
  for (const [i, thread] of threads.entries()) {
    if (signal.aborted) throw new CancelledError();
    items.push({ thread, comments: pipeline().extractComments(thread) });
    if (Date.now() - last > 30) {
      progress.report({ message: `finding comments: thread ${i + 1} of ${threads.length}` });
      await yieldNow();
      last = Date.now();
    }
  }
  return items;
}

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
        const items = await readThreads(ctx, inputs, progress, abort.signal);
        if (token.isCancellationRequested) throw new CancelledError();
        const threads = items.map((i) => i.thread);
        if (threads.length === 0) throw new InputError(inputs.join(', '), 'holds no mail messages');
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
