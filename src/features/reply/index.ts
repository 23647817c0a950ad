import * as path from 'node:path';
import * as vscode from 'vscode';
import { createReply } from '../../core/reply/create';
import { DraftStore } from '../../core/reply/drafts';
import { resolveIdentity } from '../../core/reply/identity';
import { PendingStore, toDraftComment } from '../../core/reply/pending';
import { UserError } from '../../platform/errors';
import type { ReviewComments } from '../comments/controller';
import type { Feature, FeatureContext } from '../context';
import { registerDraftCommands } from './draftCommands';
import { PendingComments, PENDING_CONTROLLER, isPendingNote } from './pendingView';
import { readReplySettings } from './settings';
import { asUserError, type ReplyParts } from './parts';
import { resolveTarget } from './target';
import { registerTrailerCommand } from './trailerCommand';

function parts(ctx: FeatureContext): ReplyParts {
  const root = path.join((ctx.extension.storageUri ?? ctx.extension.globalStorageUri).fsPath, 'reply');
  const pending = new PendingStore(root);
  const cwd = () => ctx.config().tree || vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const identity = async () => {
    try {
      return await resolveIdentity({ override: readReplySettings().from, cwd: cwd() });
    } catch (e) {
      throw asUserError(e);
    }
  };
  let me = '';
  // Off the activation path: spawning git takes milliseconds.
  setTimeout(() => void identity().then((i) => (me = i.name || i.address), () => undefined), 1000);
  const draftsFolder = path.join(root, 'drafts');
  const changed = ctx.own(new vscode.EventEmitter<void>());
  const watcher = ctx.own(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(draftsFolder), '*.eml')));
  for (const on of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete]) ctx.own(on(() => changed.fire()));
  return {
    drafts: new DraftStore(draftsFolder),
    onDidChangeDrafts: changed.event,
    sent: new DraftStore(path.join(root, 'sent')),
    pending,
    view: ctx.own(new PendingComments(pending, ctx.store, () => me || 'You')),
    cwd,
    identity,
    openDraft: async (file) => vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false }),
    confirm: async (detail) => (await vscode.window.showWarningMessage('Send this reply?', { modal: true, detail }, 'Send')) === 'Send',
  };
}

export const feature: Feature = {
  name: 'reply',
  register(ctx) {
    const p = parts(ctx);
    ctx.api.reply = p;
    void p.view.restore().catch((e) => ctx.log.error('reply', 'restoring pending comments failed', e));

    ctx.command('kernelReview.reply', 'Reply', async (arg?: unknown) => {
      const target = await resolveTarget(arg as never, ctx.store, ctx.index, ctx.api.comments as ReviewComments | undefined);
      const t = await ctx.store.get(target.threadKey);
      if (!t) throw new UserError('That thread is no longer imported.');
      const pend = await p.pending.forMessage(target.messageId);
      const existing = await p.drafts.findReplyTo(target.messageId);
      if (existing && pend.length === 0 && !target.answering) return p.openDraft(existing.file);
      const identity = await p.identity();
      const reply = createReply({
        thread: t.thread,
        messageId: target.messageId,
        comments: pend.map(toDraftComment),
        answering: target.answering,
        identity,
      });
      const info = await p.drafts.save(reply.text);
      await p.pending.remove(pend.map((c) => c.id));
      p.view.forget(pend.map((c) => c.id));
      ctx.log.info('reply', `draft ${info.id} answers ${target.messageId} with ${pend.length} comment(s)`);
      return p.openDraft(info.file);
    });

    ctx.command('kernelReview.commentOnLine', 'Comment on This Line', async (uri?: vscode.Uri) => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) throw new UserError('Open a patch mail or a file of the review branch first.');
      const line = editor.selection.active.line;
      p.view.openAt(uri instanceof vscode.Uri ? uri : editor.document.uri, line);
    });
    ctx.command('kernelReview.reply.addComment', 'Add Comment', (reply: vscode.CommentReply) => p.view.add(reply));
    ctx.command('kernelReview.reply.editComment', 'Edit Comment', (c: unknown) => isPendingNote(c) && p.view.edit(c));
    ctx.command('kernelReview.reply.saveComment', 'Save Comment', (c: unknown) => (isPendingNote(c) ? p.view.saveEdit(c) : undefined));
    ctx.command('kernelReview.reply.cancelEdit', 'Cancel', (c: unknown) => isPendingNote(c) && p.view.cancelEdit(c));
    ctx.command('kernelReview.reply.deleteComment', 'Delete Comment', (c: unknown) => (isPendingNote(c) ? p.view.remove(c) : undefined));

    registerTrailerCommand(ctx, p);
    registerDraftCommands(ctx, p);
    void vscode.commands.executeCommand('setContext', 'kernelReview.pendingController', PENDING_CONTROLLER);
  },
};
