import * as vscode from 'vscode';
import type { Repo } from '../../core/git/repo';
import type { Series } from '../../core/model';
import { CancelledError, UserError } from '../../platform/errors';
import type { Feature, FeatureContext } from '../context';
import type { AppliedSeries, StoredThread } from '../threads/model';
import { pickThread } from '../threads/pick';
import { openTree } from './tree';

/** The git engine, loaded on first use so that activation does not pay for simple-git. */
const git = () => ({
  ...(require('../../core/git/apply') as typeof import('../../core/git/apply')),
  ...(require('../../core/git/base') as typeof import('../../core/git/base')),
});

/**
 * Checks where each line comment's line really is at the tip (git may have applied a hunk a few lines away
 * from its header) and returns the positions that moved. A failure only costs the check.
 */
async function snapComments(
  ctx: FeatureContext,
  repo: Repo,
  t: StoredThread,
  series: Series,
  commits: { patchMessageId: string; sha: string }[],
): Promise<Record<string, { path: string; line: number }> | undefined> {
  try {
    const { remapToTip } = require('../../core/git/remap') as typeof import('../../core/git/remap');
    const { expectedText, snapToTip } = require('../../core/git/tipsnap') as typeof import('../../core/git/tipsnap');
    const items: { id: string; at: import('../../core/git/remap').TipPosition; expect: Array<[number, string]> | null; was: string }[] = [];
    for (const c of t.comments) {
      const k = series.patches.findIndex((p) => p.messageId === c.patchMessageId);
      if (c.kind !== 'line' || c.side !== 'new' || !c.file || !c.line || k < 0) continue;
      const at = remapToTip(series, k, c.file, 'new', c.line);
      if (at.outdated) continue;
      items.push({ id: c.id, at, expect: expectedText(series, k, c.file, 'new', c.line), was: `${at.path}:${at.line}` });
    }
    await snapToTip(repo, commits[commits.length - 1].sha, items);
    const moved = items.filter((i) => `${i.at.path}:${i.at.line}` !== i.was);
    for (const i of moved) ctx.log.info('apply', `comment ${i.id}: ${i.was} is at line ${i.at.line} on the tip (hunk applied at an offset)`);
    return moved.length ? Object.fromEntries(moved.map((i) => [i.id, { path: i.at.path, line: i.at.line }])) : undefined;
  } catch (e) {
    ctx.log.warn('apply', `could not check comment lines against the tip: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** Arguments the command accepts: a thread key, a tree node, or (scripts, tests) explicit choices. */
interface ApplyArgs {
  key?: string;
  version?: number;
  /** A revision, or 'auto' to take the detected base without asking. */
  base?: string;
}

async function pickSeries(t: StoredThread, version?: number): Promise<Series | undefined> {
  const all = t.thread.series;
  if (!all.length) throw new UserError(`The thread "${t.thread.subject}" holds no patch series to apply.`);
  if (version !== undefined) {
    const s = all.find((x) => x.version === version);
    if (!s) throw new UserError(`The thread "${t.thread.subject}" has no version ${version}.`);
    return s;
  }
  if (all.length === 1) return all[0];
  const pick = await vscode.window.showQuickPick(
    [...all].reverse().map((s) => ({ label: `v${s.version}: ${s.title}`, description: `${s.patches.length}/${s.total} patches${s.complete ? '' : ' (incomplete)'}`, s })),
    { title: 'Apply Series: which version?' },
  );
  return pick?.s;
}

/** Shows the base that would be used (base-commit, guess, HEAD) and lets the user change it. */
async function pickBase(repo: Repo, series: Series, prefix: string): Promise<string | undefined> {
  const choice = await git().chooseBase(repo, series, { branchPrefix: prefix });
  const items: (vscode.QuickPickItem & { base?: string; other?: boolean })[] = [
    { label: `$(check) ${choice.commit.slice(0, 12)}`, description: choice.source, detail: choice.detail, base: choice.commit },
  ];
  if (choice.source !== 'head') items.push({ label: '$(git-commit) HEAD', description: 'the checked-out commit', base: 'HEAD' });
  items.push({ label: '$(edit) Another revision…', other: true });
  const pick = await vscode.window.showQuickPick(items, { title: `Apply "${series.title}" v${series.version} on which base?` });
  if (!pick) return undefined;
  if (!pick.other) return pick.base;
  return vscode.window.showInputBox({ title: 'Base revision', prompt: 'A commit, tag or branch of the kernel tree', value: choice.commit });
}

async function run(ctx: FeatureContext, args: ApplyArgs): Promise<AppliedSeries | undefined> {
  const key = args.key ?? (await pickThread(ctx.store, 'Apply Series'));
  if (!key) return undefined;
  const t = await ctx.store.get(key);
  if (!t) throw new UserError(`No imported thread has the Message-ID ${key}.`);
  const series = await pickSeries(t, args.version);
  if (!series) return undefined;
  const repo = await openTree(ctx);
  const cfg = ctx.config();
  const base = args.base ?? (await pickBase(repo, series, cfg.reviewBranchPrefix));
  if (!base) return undefined;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Applying v${series.version} of "${series.title}"`, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        return await git().applySeries(repo, series, {
          base,
          branchPrefix: cfg.reviewBranchPrefix,
          trailers: { link: cfg.addTrailersOnApply, replyTrailers: cfg.addTrailersOnApply },
          signal: abort.signal,
          onPatch: (i) => progress.report({ increment: 100 / series.patches.length, message: `patch ${i + 1} of ${series.patches.length}` }),
        });
      } catch (e) {
        if (token.isCancellationRequested) throw new CancelledError();
        throw e;
      } finally {
        sub.dispose();
      }
    },
  );
  const applied: AppliedSeries = {
    version: series.version,
    tree: repo.root,
    branch: result.branch,
    base: result.base,
    baseSource: result.baseSource,
    commits: result.commits,
    failed: result.failed ? { patchMessageId: result.failed.patchMessageId, file: result.failed.file, reason: result.failed.reason } : null,
    appliedAt: new Date().toISOString(),
  };
  if (!result.failed && result.commits.length) applied.tipLines = await snapComments(ctx, repo, t, series, result.commits);
  ctx.log.info('apply', `v${series.version} -> ${result.branch} on ${result.base} (${result.baseSource}): ${result.commits.length} commit(s)${result.failed ? `, failed at ${result.failed.patchMessageId}` : ''}`);
  await ctx.store.recordApplied(key, applied);
  await ctx.index.refresh();
  if (result.failed) {
    const f = result.failed;
    const p = series.patches.find((x) => x.messageId === f.patchMessageId);
    throw new UserError(`Patch ${p?.subject.index ?? '?'}/${series.total} "${p?.commitTitle ?? f.patchMessageId}" did not apply: ${f.file ? `${f.file}: ` : ''}${f.reason.replace(/\.$/, '')}.`);
  }
  const branch = result.branch.replace(/^refs\/heads\//, '');
  void vscode.window.showInformationMessage(`Applied ${result.commits.length} patch${result.commits.length === 1 ? '' : 'es'} on ${branch} (base ${result.base.slice(0, 12)}, ${result.baseSource}); your checkout is unchanged.`);
  return applied;
}

export const feature: Feature = {
  name: 'apply',
  register(ctx) {
    ctx.command('kernelReview.applySeries', 'Apply Series', (arg?: unknown, opts?: ApplyArgs) => {
      const a: ApplyArgs = typeof arg === 'string' ? { key: arg, ...opts } : { ...(arg as ApplyArgs | undefined), ...opts };
      return run(ctx, a);
    });
    ctx.command('kernelReview.checkOutReviewBranch', 'Check Out Review Branch', async (arg?: unknown) => {
      const key = typeof arg === 'string' ? arg : (arg as { key?: string } | undefined)?.key ?? (await pickThread(ctx.store, 'Check Out Review Branch'));
      if (!key) return undefined;
      const t = await ctx.store.get(key);
      const a = t?.applied.filter((x) => !x.failed).at(-1);
      if (!a) throw new UserError('Apply the series first: there is no review branch to check out.');
      const repo = await openTree(ctx);
      const dirty = (await repo.run(['status', '--porcelain', '--untracked-files=no'])).trim();
      const branch = a.branch.replace(/^refs\/heads\//, '');
      if (dirty) {
        const pick = await vscode.window.showWarningMessage(
          `Your tree has uncommitted changes, so ${branch} is not checked out there. Create a linked worktree instead?`,
          'Create Worktree',
        );
        if (pick !== 'Create Worktree') return undefined;
        const dir = `${repo.root}-${branch.replace(/[^A-Za-z0-9._-]+/g, '-')}`;
        await repo.run(['worktree', 'add', '--', dir, branch]);
        void vscode.window.showInformationMessage(`Checked out ${branch} in a new worktree at ${dir}.`);
        return dir;
      }
      await repo.run(['checkout', branch, '--']);
      await ctx.index.refresh();
      void vscode.window.showInformationMessage(`Checked out ${branch}.`);
      return branch;
    });
  },
};
