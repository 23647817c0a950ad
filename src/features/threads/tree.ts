import * as vscode from 'vscode';
import type { Patch, Series } from '../../core/model';
import type { PlacedThread } from '../comments/locate';
import type { ReviewIndex } from '../comments/reviewIndex';
import type { StoredThread } from './model';
import { seriesTrailerCount } from './model';
import { describeSummary } from './pick';
import type { ThreadStore } from './store';

export type Node =
  | { kind: 'thread'; key: string }
  | { kind: 'series'; key: string; version: number }
  | { kind: 'patch'; key: string; version: number; messageId: string }
  | { kind: 'file'; key: string; messageId: string; file: string }
  | { kind: 'comment'; key: string; id: string };

function patchStatus(t: StoredThread, s: Series, p: Patch): 'applied' | 'failed' | 'not applied' {
  const a = t.applied.find((x) => x.version === s.version);
  if (!a) return 'not applied';
  if (a.commits.some((c) => c.patchMessageId === p.messageId)) return 'applied';
  return a.failed ? 'failed' : 'not applied';
}

const fileOf = (p: PlacedThread) => (p.comments[0].kind === 'line' ? p.comments[0].file ?? 'general' : p.comments[0].kind === 'commit-message' ? 'commit message' : 'general');

/** Threads → series (version) → patches → files → comments. All data comes from the store: no I/O here but its async reads. */
export class ThreadTree implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly store: ThreadStore,
    private readonly index: ReviewIndex,
  ) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  async getChildren(n?: Node): Promise<Node[]> {
    if (!n) {
      await this.store.whenReady();
      return this.store.list().map((s) => ({ kind: 'thread', key: s.key }));
    }
    const t = await this.store.get(n.key);
    if (!t) return [];
    const placed = this.index.ofThread(n.key);
    switch (n.kind) {
      case 'thread': {
        const versions: Node[] = t.thread.series.map((s) => ({ kind: 'series', key: n.key, version: s.version }));
        const loose = placed.filter((p) => !p.patchMessageId).map((p): Node => ({ kind: 'comment', key: n.key, id: p.id }));
        return [...versions, ...loose];
      }
      case 'series': {
        const s = t.thread.series.find((x) => x.version === n.version);
        return (s?.patches ?? []).map((p) => ({ kind: 'patch', key: n.key, version: n.version, messageId: p.messageId }));
      }
      case 'patch': {
        const files = [...new Set(placed.filter((p) => p.patchMessageId === n.messageId).map(fileOf))];
        return files.map((file) => ({ kind: 'file', key: n.key, messageId: n.messageId, file }));
      }
      case 'file':
        return placed.filter((p) => p.patchMessageId === n.messageId && fileOf(p) === n.file).map((p) => ({ kind: 'comment', key: n.key, id: p.id }));
      default:
        return [];
    }
  }

  async getTreeItem(n: Node): Promise<vscode.TreeItem> {
    const C = vscode.TreeItemCollapsibleState;
    if (n.kind === 'thread') {
      const s = this.store.summary(n.key);
      const item = new vscode.TreeItem(s?.subject ?? n.key, C.Collapsed);
      if (s) {
        const d = describeSummary(s);
        item.description = d.description;
        item.tooltip = `${s.subject}\n${d.description}\n${d.detail}`;
      }
      item.id = `t:${n.key}`;
      item.iconPath = new vscode.ThemeIcon('mail');
      item.contextValue = 'thread';
      return item;
    }
    const t = await this.store.get(n.key);
    const placed = this.index.ofThread(n.key);
    if (n.kind === 'series') {
      const s = t?.thread.series.find((x) => x.version === n.version);
      const a = t?.applied.find((x) => x.version === n.version);
      const item = new vscode.TreeItem(`v${n.version}: ${s?.title ?? ''}`, C.Expanded);
      item.id = `s:${n.key}:${n.version}`;
      const status = a ? (a.failed ? 'apply failed' : `applied on ${a.branch.replace(/^refs\/heads\//, '')}`) : 'not applied';
      item.description = `${s?.patches.length ?? 0}/${s?.total ?? 0} patches · ${status}`;
      item.iconPath = new vscode.ThemeIcon(a && !a.failed ? 'git-branch' : 'versions');
      item.contextValue = `series${a && !a.failed ? '.applied' : ''}`;
      return item;
    }
    if (n.kind === 'patch') {
      const s = t?.thread.series.find((x) => x.version === n.version);
      const p = s?.patches.find((x) => x.messageId === n.messageId);
      const idx = p?.subject.index ?? null;
      const status = t && s && p ? patchStatus(t, s, p) : 'not applied';
      const count = placed.filter((x) => x.patchMessageId === n.messageId).reduce((k, x) => k + x.comments.length, 0);
      const title = `${idx !== null && s ? `[${idx}/${s.total}] ` : ''}${p?.commitTitle ?? p?.subject.title ?? n.messageId}`;
      const item = new vscode.TreeItem(title, count ? C.Expanded : C.None);
      const rb = p ? p.trailers.filter((x) => /^(reviewed|acked)-by$/i.test(x.name)).length + (s?.replyTrailers[p.messageId]?.length ?? 0) : 0;
      item.description = `${status} · ${count} comment${count === 1 ? '' : 's'}${rb ? ` · ${rb} trailer${rb === 1 ? '' : 's'}` : ''}`;
      item.id = `p:${n.key}:${n.messageId}`;
      item.iconPath = new vscode.ThemeIcon(status === 'applied' ? 'pass' : status === 'failed' ? 'error' : 'circle-large-outline');
      item.contextValue = `patch${status === 'applied' ? '.applied' : ''}`;
      item.command = { command: 'kernelReview.showPatchMail', title: 'Show Patch Mail', arguments: [{ threadKey: n.key, messageId: n.messageId }] };
      return item;
    }
    if (n.kind === 'file') {
      const count = placed.filter((x) => x.patchMessageId === n.messageId && fileOf(x) === n.file).length;
      const item = new vscode.TreeItem(n.file, C.Expanded);
      item.id = `f:${n.key}:${n.messageId}:${n.file}`;
      item.description = `${count} conversation${count === 1 ? '' : 's'}`;
      item.iconPath = n.file.includes('/') || n.file.includes('.') ? vscode.ThemeIcon.File : new vscode.ThemeIcon('note');
      item.resourceUri = n.file.includes('/') ? vscode.Uri.file(`/${n.file}`) : undefined;
      item.contextValue = 'file';
      return item;
    }
    const p = placed.find((x) => x.id === n.id);
    const c = p?.comments[0];
    const first = c?.body.split('\n').find((l) => l.trim()) ?? '';
    const item = new vscode.TreeItem(`${c?.author.name || c?.author.address || '?'}: ${first}`, C.None);
    item.id = `c:${n.key}:${n.id}`;
    item.description = p ? `${p.label}${p.comments.length > 1 ? ` · ${p.comments.length} messages` : ''}` : '';
    item.tooltip = c?.body ?? '';
    item.iconPath = new vscode.ThemeIcon(p?.outdated ? 'comment-unresolved' : 'comment');
    item.contextValue = 'comment';
    item.command = { command: 'kernelReview.openComment', title: 'Open Comment', arguments: [n.id] };
    return item;
  }

  getParent(n: Node): Node | undefined {
    return n.kind === 'thread' ? undefined : { kind: 'thread', key: n.key };
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function trailerCount(s: Series, name: string): number {
  return seriesTrailerCount(s, name);
}
