import * as vscode from 'vscode';
import { UserError } from '../../platform/errors';
import type { Feature, FeatureContext } from '../context';
import { importInputs, pickInputs } from './import';
import { pickThread } from './pick';
import { scriptedOpen } from './scriptedOpen';
import { type Node, ThreadTree } from './tree';

function toPaths(arg: unknown): string[] | undefined {
  const list = Array.isArray(arg) ? arg : arg ? [arg] : [];
  const out = list.map((x) => (x instanceof vscode.Uri ? x.fsPath : typeof x === 'string' ? x : '')).filter(Boolean);
  return out.length ? out : undefined;
}

/** Files dropped onto the view are imported. */
class DropImport implements vscode.TreeDragAndDropController<Node> {
  readonly dropMimeTypes = ['text/uri-list', 'files'];
  readonly dragMimeTypes: string[] = [];
  async handleDrop(_target: Node | undefined, data: vscode.DataTransfer): Promise<void> {
    const text = await data.get('text/uri-list')?.asString();
    const paths = (text ?? '').split(/\r?\n/).filter((l) => l && !l.startsWith('#')).map((l) => vscode.Uri.parse(l.trim()).fsPath);
    if (paths.length) await vscode.commands.executeCommand('kernelReview.importMbox', paths.map((p) => vscode.Uri.file(p)));
  }
}

async function keyFrom(ctx: FeatureContext, arg: unknown, title: string): Promise<string | undefined> {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object' && 'key' in arg) return String((arg as { key: string }).key);
  return pickThread(ctx.store, title);
}

export const feature: Feature = {
  name: 'threads',
  register(ctx) {
    const tree = ctx.own(new ThreadTree(ctx.store, ctx.index));
    const view = ctx.own(vscode.window.createTreeView('kernelReview.threads', {
      treeDataProvider: tree,
      showCollapseAll: true,
      dragAndDropController: new DropImport(),
    }));
    ctx.api.tree = tree;
    const setKeys = () => void vscode.commands.executeCommand('setContext', 'kernelReview.hasThreads', ctx.store.list().length > 0);
    ctx.own(ctx.store.onDidChange(setKeys));
    ctx.own(ctx.index.onDidChange(() => tree.refresh()));
    void ctx.store.whenReady().then(setKeys);

    ctx.command('kernelReview.importMbox', 'Import Mbox', async (arg?: unknown, many?: unknown) => {
      const paths = toPaths(many ?? arg) ?? (await pickInputs());
      if (!paths) return undefined;
      const stored = await importInputs(ctx, paths);
      await ctx.index.refresh();
      const first = stored[0];
      if (first) await view.reveal({ kind: 'thread', key: first.key }, { expand: 2, select: true, focus: false }).then(undefined, () => undefined);
      const comments = stored.reduce((n, t) => n + t.comments.length, 0);
      void vscode.window.showInformationMessage(`Imported ${stored.length} thread${stored.length === 1 ? '' : 's'} with ${comments} review comment${comments === 1 ? '' : 's'}.`);
      return stored.map((t) => t.key);
    });
    ctx.command('kernelReview.openThread', 'Open Thread', async (arg?: unknown) => {
      const key = await keyFrom(ctx, arg, 'Open Thread');
      if (!key) return undefined;
      if (!ctx.store.has(key)) throw new UserError(`No imported thread has the Message-ID ${key}.`);
      await view.reveal({ kind: 'thread', key }, { expand: 2, select: true, focus: true }).then(undefined, () => undefined);
      await vscode.commands.executeCommand('kernelReview.showThread', key);
      return key;
    });
    ctx.command('kernelReview.removeThread', 'Remove Thread', async (arg?: unknown) => {
      const key = await keyFrom(ctx, arg, 'Remove Thread');
      if (!key) return;
      await ctx.store.remove(key);
    });
    ctx.command('kernelReview.showLog', 'Show Log', () => ctx.log.show());
    scriptedOpen(ctx);
  },
};
