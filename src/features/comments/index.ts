import * as vscode from 'vscode';
import { UserError } from '../../platform/errors';
import type { Feature, FeatureContext } from '../context';
import { ReviewComments } from './controller';
import { registerDocuments } from './documents';
import { gitUri } from './uris';
import type { PlacedThread } from './locate';

/** Opens the document of a placed conversation at its line and expands it (old side: in a diff editor). */
export async function revealPlaced(p: PlacedThread, comments: ReviewComments): Promise<vscode.TextEditor | undefined> {
  const range = new vscode.Range(p.line, 0, p.line, 0);
  let editor: vscode.TextEditor | undefined;
  if (p.where === 'old' && p.diffWith) {
    const name = p.uri.path.split('/').pop();
    await vscode.commands.executeCommand('vscode.diff', p.uri, p.diffWith, `${name} (base ↔ patch)`, { preview: false });
    editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === p.uri.toString());
    if (editor) {
      editor.selection = new vscode.Selection(range.start, range.start);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
    }
  } else {
    editor = await vscode.window.showTextDocument(p.uri, { selection: range, preview: false });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
  }
  comments.expand(p.id);
  return editor;
}

export const feature: Feature = {
  name: 'comments',
  register(ctx: FeatureContext) {
    ctx.own(registerDocuments(ctx.store, ctx.log));
    const comments = ctx.own(new ReviewComments(ctx.index));
    ctx.api.comments = comments;
    ctx.command('kernelReview.openComment', 'Open Comment', async (id?: string | { commentId?: string; kind?: string; id?: string }) => {
      const key = typeof id === 'string' ? id : id?.commentId ?? (id?.kind === 'comment' ? id.id : undefined);
      await ctx.index.whenReady();
      await comments.whenSynced();
      const p = key ? ctx.index.find(key) : undefined;
      if (!p) throw new UserError(`The comment ${key ?? ''} is not among the imported threads.`.replace('  ', ' '));
      await revealPlaced(p, comments);
      return { uri: p.uri.toString(), line: p.line, where: p.where };
    });
    ctx.command('kernelReview.showPatchDiff', 'Show Patch Diff', async (arg?: { key?: string; threadKey?: string; messageId?: string }) => {
      const key = arg?.threadKey ?? arg?.key;
      const t = key ? await ctx.store.get(key) : undefined;
      if (!t || !arg?.messageId) throw new UserError('Choose an applied patch in the Kernel Review view.');
      for (const a of t.applied.filter((x) => !x.failed)) {
        const i = a.commits.findIndex((c) => c.patchMessageId === arg.messageId);
        if (i < 0) continue;
        const sha = a.commits[i].sha;
        const parent = i > 0 ? a.commits[i - 1].sha : a.base;
        const patch = t.thread.series.flatMap((s) => s.patches).find((p) => p.messageId === arg.messageId);
        const changes = (patch?.files ?? []).map((f) => [
          gitUri(a.tree, sha, f.path),
          f.isNew || !f.oldPath ? undefined : gitUri(a.tree, parent, f.oldPath),
          f.isDeleted || !f.newPath ? undefined : gitUri(a.tree, sha, f.newPath),
        ]);
        await vscode.commands.executeCommand('vscode.changes', `${patch?.commitTitle ?? 'Patch'} (base ↔ patch)`, changes);
        return changes.length;
      }
      throw new UserError('This patch is not applied: use Apply Series… first.');
    });
  },
};
