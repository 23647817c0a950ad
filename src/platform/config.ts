import * as vscode from 'vscode';

/** Every setting of the extension, typed. Read through `readConfig()`, never ad hoc. */
export interface KernelReviewConfig {
  /** Path of the kernel git tree; empty = the first workspace folder that is a git repository. */
  tree: string;
  reviewBranchPrefix: string;
  addTrailersOnApply: boolean;
  publicInbox: string;
}

export const CONFIG_SECTION = 'kernelReview';

export function readConfig(scope?: vscode.ConfigurationScope): KernelReviewConfig {
  const c = vscode.workspace.getConfiguration(CONFIG_SECTION, scope);
  return {
    tree: c.get<string>('tree', '').trim(),
    reviewBranchPrefix: c.get<string>('reviewBranchPrefix', 'review/') || 'review/',
    addTrailersOnApply: c.get<boolean>('addTrailersOnApply', true),
    publicInbox: c.get<string>('publicInbox', 'https://lore.kernel.org/all/'),
  };
}

/** Calls `listener` when any `kernelReview.*` setting changes. */
export function onConfigChange(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(CONFIG_SECTION)) listener();
  });
}
