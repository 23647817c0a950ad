import * as vscode from 'vscode';
import type { FeatureContext } from '../context';

/**
 * `KERNEL_REVIEW_OPEN=<mbox>[:<mbox>…]` in the editor's environment (set by `npm run demo` and usable from
 * scripts): on activation, import those files unless they already are, apply each series to the tree,
 * and open the first comment on a source line. Every step goes through the ordinary commands and their error reporting.
 */
export function scriptedOpen(ctx: FeatureContext): void {
  const spec = process.env.KERNEL_REVIEW_OPEN;
  if (!spec) return;
  const files = spec.split(':').filter(Boolean);
  void (async () => {
    await ctx.store.whenReady();
    ctx.log.info('import', `KERNEL_REVIEW_OPEN: ${files.join(', ')}`);
    const keys = (await vscode.commands.executeCommand<string[]>('kernelReview.importMbox', files.map((f) => vscode.Uri.file(f)))) ?? [];
    for (const key of keys) {
      const t = await ctx.store.get(key);
      if (t?.thread.series.length && !t.applied.some((a) => !a.failed)) {
        await vscode.commands.executeCommand('kernelReview.applySeries', key, { base: 'auto' });
      }
    }
    await vscode.commands.executeCommand('workbench.view.extension.kernelReview');
    await ctx.index.whenReady();
    const first = ctx.index.list().find((p) => keys.includes(p.threadKey) && p.where === 'tip');
    if (first) await vscode.commands.executeCommand('kernelReview.openComment', first.id);
    else await vscode.commands.executeCommand('kernelReview.nextComment');
  })();
}
