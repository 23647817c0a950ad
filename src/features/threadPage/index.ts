import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { UserError } from '../../platform/errors';
import { messageUri } from '../comments/uris';
import type { Feature, FeatureContext } from '../context';
import { pickThread } from '../threads/pick';
import { escapeHtml, renderThread } from './html';

/** Messages the page may send; anything else is ignored. */
type PageMessage = { type: 'openComment'; id: string };

function isPageMessage(m: unknown): m is PageMessage {
  return !!m && typeof m === 'object' && (m as PageMessage).type === 'openComment' && typeof (m as PageMessage).id === 'string';
}

async function showThread(ctx: FeatureContext, key: string): Promise<vscode.WebviewPanel> {
  const t = await ctx.store.get(key);
  if (!t) throw new UserError(`No imported thread has the Message-ID ${key}.`);
  const media = vscode.Uri.joinPath(ctx.extension.extensionUri, 'media');
  const panel = vscode.window.createWebviewPanel('kernelReview.thread', t.thread.subject.slice(0, 60) || 'Thread', vscode.ViewColumn.Active, {
    enableScripts: true,
    localResourceRoots: [media],
  });
  const nonce = randomBytes(16).toString('base64');
  const w = panel.webview;
  const css = w.asWebviewUri(vscode.Uri.joinPath(media, 'threadPage.css'));
  const js = w.asWebviewUri(vscode.Uri.joinPath(media, 'threadPage.js'));
  w.html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${w.cspSource}; style-src ${w.cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="${css}"><title>${escapeHtml(t.thread.subject)}</title></head>
<body>${renderThread(t)}<script nonce="${nonce}" src="${js}"></script></body></html>`;
  ctx.own(w.onDidReceiveMessage((m: unknown) => {
    if (isPageMessage(m)) void vscode.commands.executeCommand('kernelReview.openComment', m.id);
  }));
  return panel;
}

export const feature: Feature = {
  name: 'threadPage',
  register(ctx) {
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
