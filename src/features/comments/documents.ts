import * as vscode from 'vscode';
import type { Log } from '../../platform/log';
import type { ThreadStore } from '../threads/store';
import { renderMail } from './mailview';
import { SCHEME, parseDocUri } from './uris';

/** Read-only documents: files of the review branch read from git objects, and rendered mails. */
export class ReviewDocuments implements vscode.TextDocumentContentProvider {
  constructor(
    private readonly store: ThreadStore,
    private readonly log: Log,
  ) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = parseDocUri(uri);
    if (!ref) throw new Error(`${uri.toString()} is not a Kernel Review document.`);
    if (ref.t === 'git') {
      const { Repo } = require('../../core/git/repo') as typeof import('../../core/git/repo'); // loaded on first use
      const repo = await Repo.open(ref.tree, { logger: (l) => this.log.info('git', l) });
      return repo.run(['show', `${ref.rev}:${ref.file}`]);
    }
    const t = await this.store.get(ref.thread);
    const m = t?.thread.messages.find((x) => x.messageId === ref.msg);
    if (!m) throw new Error(`The message ${ref.msg} is no longer imported.`);
    return renderMail(m).text;
  }
}

export function registerDocuments(store: ThreadStore, log: Log): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(SCHEME, new ReviewDocuments(store, log));
}
