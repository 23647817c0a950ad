import * as vscode from 'vscode';
import { UserError } from '../../platform/errors';
import { messageUri } from '../comments/uris';
import type { Feature, FeatureContext } from '../context';
import { pickThread } from '../threads/pick';
import { renderThread } from './html';
import { MAIL_EDITOR, MailThreadEditor } from './openWith';
import { isPageMessage, pageHtml, webviewOptions } from './page';

async function showThread(ctx: FeatureContext, key: string): Promise<vscode.WebviewPanel> {
  const t = await ctx.store.get(key);
  if (!t) throw new UserError(`No imported thread has the Message-ID ${key}.`);
  const panel = vscode.window.createWebviewPanel('kernelReview.thread', t.thread.subject.slice(0, 60) || 'Thread', vscode.ViewColumn.Active,
    webviewOptions(ctx.extension.extensionUri));
  panel.webview.html = pageHtml(panel.webview, ctx.extension.extensionUri, t.thread.subject, renderThread(t));
  const sub = panel.webview.onDidReceiveMessage((m: unknown) => {
    if (isPageMessage(m) && m.type === 'openComment') void vscode.commands.executeCommand('kernelReview.openComment', m.id);
  });
  panel.onDidDispose(() => sub.dispose());
  return panel;
}

export const feature: Feature = {
  name: 'threadPage',
  register(ctx) {
    ctx.own(vscode.window.registerCustomEditorProvider(MAIL_EDITOR, new MailThreadEditor(ctx), { supportsMultipleEditorsPerDocument: true }));
    ctx.command('kernelReview.showThread', 'Show Thread', async (arg?: unknown) => {
      const key = typeof arg === 'string' ? arg : (arg as { key?: string; threadKey?: string } | undefined)?.key ?? (await pickThread(ctx.store, 'Show Thread'));
      if (!key) return undefined;
      const panel = await showThread(ctx, key);
      return { title: panel.title };
    });
    ctx.command('kernelReview.showPatchMail', 'Show Patch Mail', async (arg?: { threadKey?: string; key?: string; messageId?: string }) => {
      const key = arg?.threadKey ?? arg?.key ?? (await pickThread(ctx.store, 'Show Patch Mail'));
      if (!key) return undefined;
      const t = await ctx.store.get(key);
      const m = t?.thread.messages.find((x) => x.messageId === (arg?.messageId ?? t.thread.series[0]?.patches[0]?.messageId ?? t.thread.rootMessageId));
      if (!t || !m) throw new UserError('That patch mail is no longer imported.');
      const editor = await vscode.window.showTextDocument(messageUri(key, m.messageId, m.subject), { preview: true });
      return editor.document.uri.toString();
    });
  },
};
