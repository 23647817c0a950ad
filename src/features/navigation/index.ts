import * as vscode from 'vscode';
import { UserError } from '../../platform/errors';
import type { PlacedThread } from '../comments/locate';
import type { Feature, FeatureContext } from '../context';

/** Position in the ordered list of comment conversations, shown as "comment n of m". */
class Cursor implements vscode.Disposable {
  current = -1;
  readonly item = vscode.window.createStatusBarItem('kernelReview.position', vscode.StatusBarAlignment.Left, 50);

  constructor(private readonly list: () => readonly PlacedThread[], private readonly subjectOf: (key: string) => string) {
    this.item.name = 'Kernel Review';
    this.item.command = 'kernelReview.nextComment';
    this.item.tooltip = 'Kernel Review: next comment';
  }

  update(): void {
    const items = this.list();
    if (!items.length) {
      this.item.hide();
      return;
    }
    if (this.current >= items.length) this.current = items.length - 1;
    const at = items[this.current];
    const series = at ? this.subjectOf(at.threadKey) : '';
    this.item.text = `$(comment-discussion) ${series ? `${series.slice(0, 40)} · ` : ''}comment ${this.current + 1 > 0 ? this.current + 1 : '–'} of ${items.length}`;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}

/** The conversation nearest the cursor in the active editor, if it shows one. */
function fromActiveEditor(items: readonly PlacedThread[]): number {
  const e = vscode.window.activeTextEditor;
  if (!e) return -1;
  const uri = e.document.uri.toString();
  const line = e.selection.active.line;
  return items.findIndex((p) => p.uri.toString() === uri && p.line === line);
}

/**
 * The comment's line in the source at the review-branch tip: the real file when the branch is checked out,
 * else the read-only file of the branch. Comments not on a source line say why.
 */
async function openSource(p: PlacedThread): Promise<vscode.TextEditor> {
  if (p.where !== 'tip') {
    const why = p.where === 'mail' ? 'apply the series first (Apply Series…) to map it to the source'
      : p.where === 'old' ? 'it is about a removed line: it is shown on the base side of the patch\'s diff'
      : 'its line was changed by a later patch of the series (outdated)';
    throw new UserError(`The comment at ${p.label} has no source line: ${why}.`);
  }
  const range = new vscode.Range(p.line, 0, p.line, 0);
  const editor = await vscode.window.showTextDocument(p.uri, { selection: range, preview: false });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
  return editor;
}

export const feature: Feature = {
  name: 'navigation',
  register(ctx) {
    const cursor = ctx.own(new Cursor(() => ctx.index.list(), (k) => ctx.store.summary(k)?.subject ?? ''));
    ctx.own(ctx.index.onDidChange(() => cursor.update()));
    // Opening a comment any other way (tree, thread page, comments panel) moves the cursor too.
    ctx.own(vscode.window.onDidChangeTextEditorSelection(() => {
      const here = fromActiveEditor(ctx.index.list());
      const cur = ctx.index.list()[cursor.current];
      const e = vscode.window.activeTextEditor;
      const onCursor = !!cur && !!e && e.document.uri.toString() === cur.uri.toString() && e.selection.active.line === cur.line;
      if (here >= 0 && !onCursor) {
        cursor.current = here;
        cursor.update();
      }
    }));
    ctx.api.navigation = cursor;

    const step = async (delta: number) => {
      await ctx.index.whenReady();
      const items = ctx.index.list();
      if (!items.length) throw new UserError('There are no review comments: import a thread with replies first.');
      // Stay on the cursor while the editor still shows its comment; follow the editor when the user moved.
      const cur = items[cursor.current];
      const e = vscode.window.activeTextEditor;
      const onCursor = !!cur && !!e && e.document.uri.toString() === cur.uri.toString() && e.selection.active.line === cur.line;
      const here = onCursor ? cursor.current : fromActiveEditor(items);
      const from = here >= 0 ? here : cursor.current;
      cursor.current = from < 0 ? (delta > 0 ? 0 : items.length - 1) : (from + delta + items.length) % items.length;
      cursor.update();
      const p = items[cursor.current];
      await vscode.commands.executeCommand('kernelReview.openComment', p.id);
      return { index: cursor.current, total: items.length, id: p.id, uri: p.uri.toString(), line: p.line };
    };
    ctx.command('kernelReview.nextComment', 'Next Comment', () => step(1));
    ctx.command('kernelReview.previousComment', 'Previous Comment', () => step(-1));
    ctx.command('kernelReview.goToSourceLine', 'Go to Source Line', async (arg?: unknown) => {
      await ctx.index.whenReady();
      const node = arg as { commentId?: string; kind?: string; id?: string } | undefined;
      const id = typeof arg === 'string' ? arg : node?.commentId ?? (node?.kind === 'comment' ? node.id : undefined);
      let p = id ? ctx.index.find(id) : undefined;
      if (!p && arg && typeof arg === 'object' && 'uri' in arg) {
        // invoked from a comment thread's title: the CommentThread has uri and range
        const t = arg as vscode.CommentThread;
        p = ctx.index.list().find((x) => x.uri.toString() === t.uri.toString() && x.line === t.range?.start.line);
      }
      if (!p) {
        const items = ctx.index.list();
        const here = fromActiveEditor(items);
        p = items[here >= 0 ? here : cursor.current];
      }
      if (!p) throw new UserError('Open a comment first (Next Comment or the Kernel Review view).');
      const editor = await openSource(p);
      return { uri: editor.document.uri.toString(), line: editor.selection.active.line };
    });
  },
};
