import * as vscode from 'vscode';
import type { ThreadStore } from './store';
import type { ThreadSummary } from './model';

interface Item extends vscode.QuickPickItem {
  key: string;
}

export function describeSummary(s: ThreadSummary): { description: string; detail: string } {
  const versions = s.versions.length ? `v${[...new Set(s.versions)].join(', v')}` : 'no patches';
  const parts = [
    versions,
    `${s.patches} patch${s.patches === 1 ? '' : 'es'}`,
    `${s.reviewedBy} Reviewed-by`,
    `${s.ackedBy} Acked-by`,
    `${s.comments} comment${s.comments === 1 ? '' : 's'}`,
    `${s.messages} message${s.messages === 1 ? '' : 's'}`,
  ];
  if (s.applied.length) parts.push(`applied v${s.applied.join(', v')}`);
  return { description: `${s.author}${s.date ? ` · ${s.date.slice(0, 10)}` : ''}`, detail: parts.join(' · ') };
}

/** Quick pick of imported threads, fuzzy-matched on subject, author, date and counts. */
export async function pickThread(store: ThreadStore, title = 'Open Thread'): Promise<string | undefined> {
  await store.whenReady();
  const items: Item[] = store.list().map((s) => ({ key: s.key, label: s.subject, ...describeSummary(s) }));
  const pick = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: items.length ? 'Subject, author, date, version…' : 'No threads imported yet',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return pick?.key;
}
