import * as vscode from 'vscode';
import type { Repo } from '../../core/git/repo';
import { UserError } from '../../platform/errors';
import type { FeatureContext } from '../context';

/** The kernel tree: `kernelReview.tree`, else the first workspace folder that is a git repository. */
export async function openTree(ctx: FeatureContext): Promise<Repo> {
  const { Repo } = require('../../core/git/repo') as typeof import('../../core/git/repo'); // loaded on first use
  const logger = (l: string) => ctx.log.info('git', l);
  const configured = ctx.config().tree;
  if (configured) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const abs = configured.startsWith('/') || !folder ? configured : `${folder}/${configured}`;
    try {
      return await Repo.open(abs, { logger });
    } catch (e) {
      throw new UserError(`The setting kernelReview.tree (${configured}) is not a git repository: ${(e as Error).message}`);
    }
  }
  for (const f of vscode.workspace.workspaceFolders ?? []) {
    try {
      return await Repo.open(f.uri.fsPath, { logger });
    } catch {
      // not a repository: try the next folder
    }
  }
  throw new UserError('No kernel tree: open your kernel git tree as a workspace folder or set kernelReview.tree.');
}
