import * as vscode from 'vscode';
import type { FeatureContext } from '../context';
import { importInWorker } from '../threads/importWorker';
import type { StoredThread } from '../threads/model';
import { escapeHtml, renderThread } from './html';
import { isPageMessage, pageHtml, webviewOptions } from './page';

export const MAIL_EDITOR = 'kernelReview.mailThread';

/** "Open With… → Kernel Review Thread" for .mbox/.eml files: the conversation, read-only, with an Import button. */
export class MailThreadEditor implements vscode.CustomReadonlyEditorProvider {
  constructor(private readonly ctx: FeatureContext) {}

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(doc: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    const w = panel.webview;
    w.options = webviewOptions(this.ctx.extension.extensionUri);
    const sub = w.onDidReceiveMessage((m: unknown) => {
      if (!isPageMessage(m)) return;
      if (m.type === 'import') void vscode.commands.executeCommand('kernelReview.importMbox', doc.uri);
      else void vscode.commands.executeCommand('kernelReview.openComment', m.id);
    });
    panel.onDidDispose(() => sub.dispose());
    const threads: StoredThread[] = [];
    try {
      await importInWorker([doc.uri.fsPath], (m) => {
        if (m.type === 'thread') threads.push({ key: m.thread.rootMessageId, thread: m.thread, comments: m.comments, sources: [], importedAt: '', applied: [] });
      }, new AbortController().signal);
    } catch (e) {
      w.html = pageHtml(w, this.ctx.extension.extensionUri, 'Kernel Review', `<p>${escapeHtml(e instanceof Error ? e.message : String(e))}</p>`);
      return;
    }
    const body = `<p><button data-import>Import into Kernel Review</button> ${threads.length} thread${threads.length === 1 ? '' : 's'}</p>`
      + threads.map((t) => `<section>${renderThread(t)}</section>`).join('\n');
    w.html = pageHtml(w, this.ctx.extension.extensionUri, threads[0]?.thread.subject ?? 'Kernel Review', body);
  }
}
