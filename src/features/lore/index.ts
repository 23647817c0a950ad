import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MessageRef } from '../../core/lore/msgid';
import { CancelledError, UserError } from '../../platform/errors';
import type { Feature, FeatureContext } from '../context';
import { importInputs } from '../threads/import';
import { pickThread } from '../threads/pick';

/** The lore client, loaded on first use (activation stays cheap). */
const lore = () => ({
  ...(require('../../core/lore/msgid') as typeof import('../../core/lore/msgid')),
  ...(require('../../core/lore/cache') as typeof import('../../core/lore/cache')),
  ...(require('../../core/lore/search') as typeof import('../../core/lore/search')),
  ...(require('../../core/load') as typeof import('../../core/load')),
});

function cacheDir(ctx: FeatureContext): string {
  return path.join(ctx.extension.globalStorageUri.fsPath, 'lore');
}

/** Runs `fn` under a cancellable progress notification, turning cancellation into an AbortSignal. */
function withCancel<T>(title: string, fn: (signal: AbortSignal) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (_p, token) => {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      return await fn(abort.signal);
    } catch (e) {
      if (token.isCancellationRequested) throw new CancelledError();
      throw e;
    } finally {
      sub.dispose();
    }
  });
}

async function askForRef(ctx: FeatureContext): Promise<MessageRef | undefined> {
  const clip = lore().refFromText(await vscode.env.clipboard.readText().then(undefined, () => ''));
  const value = await vscode.window.showInputBox({
    title: 'Fetch Thread',
    prompt: `A Message-ID, a lore URL or a patch.msgid.link URL (server: ${ctx.config().publicInbox})`,
    placeHolder: '<20251231030101.3093960-1-ming.lei@redhat.com>',
    value: clip ? `<${clip.id}>` : '',
    ignoreFocusOut: true,
    validateInput: (v) => (!v.trim() || lore().refFromText(v) ? undefined : 'This is neither a Message-ID nor a message URL.'),
  });
  if (!value) return undefined;
  return lore().requireMessageRef(value);
}

/** Fetches (or takes from the cache) the thread of `ref` and imports it; returns the stored keys. */
async function fetchAndImport(ctx: FeatureContext, ref: MessageRef, refresh: boolean, extra: string[] = []): Promise<string[]> {
  const base = lore().baseFor(ref, ctx.config().publicInbox);
  const host = lore().hostOf(base);
  const got = await withCancel(`${refresh ? 'Refreshing' : 'Fetching'} <${ref.id}> from ${host}`, (signal) =>
    lore().cachedThread(ref.id, { base, cacheDir: cacheDir(ctx), signal, refresh }),
  );
  ctx.log.info('lore', `<${ref.id}>: ${got.fromCache ? 'from the cache' : got.url}, ${got.messages} message(s), ${got.added.length} new`);
  const stored = await importInputs(ctx, [...extra, got.path]);
  await ctx.index.refresh();
  return stored.map((t) => t.key);
}

export const feature: Feature = {
  name: 'lore',
  register(ctx) {
    ctx.command('kernelReview.fetchThread', 'Fetch Thread', async (arg?: unknown) => {
      const ref = typeof arg === 'string' ? lore().requireMessageRef(arg) : await askForRef(ctx);
      if (!ref) return undefined;
      const keys = await fetchAndImport(ctx, ref, false);
      const key = keys.find((k) => k === `<${ref.id}>`) ?? keys[0];
      if (key) await vscode.commands.executeCommand('kernelReview.openThread', key);
      return keys;
    });

    ctx.command('kernelReview.refreshThread', 'Refresh Thread', async (arg?: unknown) => {
      const key = typeof arg === 'string' ? arg : arg && typeof arg === 'object' && 'key' in arg ? String((arg as { key: string }).key) : undefined;
      const picked = key ?? (await pickThread(ctx.store, 'Refresh Thread'));
      if (!picked) return undefined;
      const stored = await ctx.store.get(picked);
      if (!stored) throw new UserError(`No imported thread has the Message-ID ${picked}.`);
      // A placeholder root was never archived; ask the server for a message it does have.
      const present = stored.thread.messages.find((m) => m.messageId === stored.thread.rootMessageId && !m.syntheticId) ?? stored.thread.messages.find((m) => !m.syntheticId);
      if (!present) throw new UserError('This thread was imported from mail without Message-IDs; it cannot be fetched again.');
      const ref = lore().requireMessageRef(present.messageId);
      // Files it came from are read again with the fetched copy: duplicates count once.
      const files = [];
      for (const s of stored.sources) if (await fs.stat(s).then(() => true, () => false)) files.push(s);
      return fetchAndImport(ctx, ref, true, files.filter((f) => !f.startsWith(cacheDir(ctx))));
    });

    ctx.command('kernelReview.searchLore', 'Search Lore', async (arg?: unknown) => {
      const query =
        typeof arg === 'string'
          ? arg
          : await vscode.window.showInputBox({
              title: 'Search Lore',
              prompt: `A public-inbox query on ${ctx.config().publicInbox}, e.g. s:io_uring f:axboe d:2.weeks.ago..`,
              ignoreFocusOut: true,
            });
      if (!query?.trim()) return undefined;
      const base = lore().normalizeBase(ctx.config().publicInbox);
      const found = await withCancel(`Searching ${lore().hostOf(base)}`, (signal) => lore().searchMbox(query, { base, signal }));
      if (found.entries.length === 0) {
        void vscode.window.showInformationMessage(`Nothing on ${lore().hostOf(base)} matches ${query}.`);
        return undefined;
      }
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kernel-review-search-'));
      try {
        const file = path.join(dir, 'results.mbox');
        await fs.writeFile(file, found.mbox);
        const threads = await lore().loadThreads([file], { light: true, workers: 0 });
        const items = threads.map((t) => {
          const first = t.messages[0];
          const s = t.series[0];
          return {
            label: t.subject || '(no subject)',
            description: `${first?.from.name || first?.from.address || ''}${first?.date ? `, ${new Date(first.date).toISOString().slice(0, 10)}` : ''}`,
            detail: `${t.messages.length} matching message${t.messages.length === 1 ? '' : 's'}${s ? ` · v${s.version}, ${s.patches.length}/${s.total} patches` : ''}`,
            id: t.messages.find((m) => !m.syntheticId)?.messageId ?? t.rootMessageId,
          };
        });
        const pick = await vscode.window.showQuickPick(items, { title: `Lore: ${query}`, matchOnDescription: true, matchOnDetail: true });
        if (!pick) return undefined;
        return vscode.commands.executeCommand('kernelReview.fetchThread', pick.id);
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    });
  },
};
