/** Commands on a reply draft: send (after a confirmation), save as .eml, copy, open, delete. */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { renderMail, withDate } from '../../core/reply/draft';
import { formatRfc5322Date } from '../../core/reply/headers';
import { exportEml, sendViaGit, sendViaSmtp, summarize } from '../../core/reply/send';
import { CancelledError, UserError } from '../../platform/errors';
import type { FeatureContext } from '../context';
import { asUserError, type ReplyParts } from './parts';
import { readReplySettings } from './settings';

const PASSWORD_KEY = 'kernelReview.reply.smtp.password';

export function registerDraftCommands(ctx: FeatureContext, p: ReplyParts): void {
  const isDraft = (uri?: vscode.Uri) => !!uri && uri.scheme === 'file' && path.dirname(uri.fsPath) === p.drafts.folder;
  const updateContext = () =>
    void vscode.commands.executeCommand('setContext', 'kernelReview.isReplyDraft', isDraft(vscode.window.activeTextEditor?.document.uri));
  ctx.own(vscode.window.onDidChangeActiveTextEditor(updateContext));
  updateContext();

  /** The draft the command is about: the given file, else the active editor's (saved first). */
  const current = async (uri?: vscode.Uri): Promise<{ file: string; text: string }> => {
    const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
    if (!target || !isDraft(target)) throw new UserError('Open a reply draft first (Kernel Review: Open Reply Draft…).');
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.toString());
    if (doc?.isDirty) await doc.save();
    return { file: target.fsPath, text: await readFile(target.fsPath, 'utf8') };
  };

  ctx.command('kernelReview.reply.send', 'Send Reply', async (uri?: vscode.Uri) => {
    const { file, text: composed } = await current(uri);
    const s = (() => {
      try {
        return summarize(composed);
      } catch (e) {
        throw asUserError(e);
      }
    })();
    const settings = readReplySettings();
    const how = settings.sendMethod === 'smtp' ? `SMTP ${settings.smtp.host}:${settings.smtp.port}` : 'git send-email';
    const detail = [`From: ${s.from}`, `To: ${s.to.join(', ')}`, `Cc: ${s.cc.join(', ') || '—'}`, ...(s.bcc.length ? [`Bcc: ${s.bcc.join(', ')}`] : []), `Subject: ${s.subject}`, '', `Sent with ${how}.`].join('\n');
    if (!(await p.confirm(detail))) throw new CancelledError();
    // Dated when sent, as mutt does; the copy kept in sent/ is what went out, byte for byte.
    const text = withDate(composed, formatRfc5322Date(new Date(), -new Date().getTimezoneOffset()));
    try {
      if (settings.sendMethod === 'smtp') {
        if (!settings.smtp.host) throw new UserError('Set kernelReview.reply.smtp.host to send through SMTP, or switch kernelReview.reply.sendMethod to git-send-email.');
        let password: string | undefined;
        if (settings.smtp.user) {
          password = await ctx.extension.secrets.get(PASSWORD_KEY);
          if (!password) {
            password = await vscode.window.showInputBox({ prompt: `SMTP password for ${settings.smtp.user}@${settings.smtp.host}`, password: true, ignoreFocusOut: true });
            if (!password) throw new CancelledError();
            await ctx.extension.secrets.store(PASSWORD_KEY, password);
          }
        }
        const res = await sendViaSmtp(text, { ...settings.smtp, password });
        ctx.log.info('reply', `sent ${path.basename(file)} via SMTP: ${res.response}`);
      } else {
        const cwd = p.cwd();
        if (!cwd) throw new UserError('Open the kernel tree (or set kernelReview.tree) so git send-email finds your sendemail settings.');
        ctx.log.info('git', `git send-email (in ${cwd}) ${path.basename(file)}`);
        await sendViaGit(text, { cwd });
      }
    } catch (e) {
      throw asUserError(e);
    }
    const id = path.basename(file, '.eml');
    await p.sent.save(text, id);
    await p.drafts.remove(id);
    void vscode.window.showInformationMessage(`Reply sent to ${[...s.to, ...s.cc].length} recipient(s).`);
  });

  ctx.command('kernelReview.reply.saveAsEml', 'Save Reply as .eml', async (uri?: vscode.Uri) => {
    const { file, text } = await current(uri);
    const dest = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.file(path.join(p.cwd() ?? path.dirname(file), path.basename(file))), filters: { Mail: ['eml'] } });
    if (!dest) throw new CancelledError();
    await exportEml(text, dest.fsPath);
  });

  ctx.command('kernelReview.reply.copy', 'Copy Reply to Clipboard', async (uri?: vscode.Uri) => {
    const { text } = await current(uri);
    await vscode.env.clipboard.writeText(renderMail(text).toString('utf8'));
  });

  ctx.command('kernelReview.reply.openDraft', 'Open Reply Draft', async () => {
    const list = await p.drafts.list();
    if (!list.length) throw new UserError('There is no reply draft; use Reply… on a patch or a comment.');
    const pick = await vscode.window.showQuickPick(
      list.map((d) => ({ label: d.subject || d.id, description: d.to, detail: d.problem ?? `saved ${d.modified.toLocaleString()}`, d })),
      { placeHolder: 'Open which reply draft?', matchOnDescription: true },
    );
    if (!pick) throw new CancelledError();
    return p.openDraft(pick.d.file);
  });

  ctx.command('kernelReview.reply.deleteDraft', 'Delete Reply Draft', async (uri?: vscode.Uri) => {
    const { file } = await current(uri);
    const ok = await vscode.window.showWarningMessage('Delete this reply draft?', { modal: true }, 'Delete');
    if (ok !== 'Delete') throw new CancelledError();
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await p.drafts.remove(path.basename(file, '.eml'));
  });
}
