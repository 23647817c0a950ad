import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { escapeHtml } from './html';

/** Messages a page may send; anything else is ignored. */
export type PageMessage = { type: 'openComment'; id: string } | { type: 'import' };

export function isPageMessage(m: unknown): m is PageMessage {
  if (!m || typeof m !== 'object') return false;
  const x = m as { type?: unknown; id?: unknown };
  return (x.type === 'openComment' && typeof x.id === 'string') || x.type === 'import';
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')] };
}

/** The page around `body` (already escaped HTML): strict CSP with a fresh nonce, assets from media/ only. */
export function pageHtml(w: vscode.Webview, extensionUri: vscode.Uri, title: string, body: string): string {
  const media = vscode.Uri.joinPath(extensionUri, 'media');
  const nonce = randomBytes(16).toString('base64');
  const css = w.asWebviewUri(vscode.Uri.joinPath(media, 'threadPage.css'));
  const js = w.asWebviewUri(vscode.Uri.joinPath(media, 'threadPage.js'));
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${w.cspSource}; style-src ${w.cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="${css}"><title>${escapeHtml(title)}</title></head>
<body>${body}<script nonce="${nonce}" src="${js}"></script></body></html>`;
}
