import type * as vscode from 'vscode';
import type { DraftStore } from '../../core/reply/drafts';
import { ReplyError } from '../../core/reply/errors';
import type { PendingStore } from '../../core/reply/pending';
import { UserError } from '../../platform/errors';
import type { PendingComments } from './pendingView';

/** The shared pieces of the reply feature. */
export interface ReplyParts {
  drafts: DraftStore;
  sent: DraftStore;
  pending: PendingStore;
  view: PendingComments;
  /** The git tree whose configuration gives the identity and send-email settings. */
  cwd(): string | undefined;
  identity(): Promise<{ name: string; address: string }>;
  openDraft(file: string): Promise<vscode.TextEditor>;
  /** Fires when a draft is created, saved, sent or deleted (for a list of drafts in a view). */
  onDidChangeDrafts: vscode.Event<void>;
  /** Asks before sending, showing From, To, Cc and Subject; true to send. */
  confirm(detail: string): Promise<boolean>;
}

/** A reply error is a sentence for the user as it is. */
export function asUserError(e: unknown): unknown {
  return e instanceof ReplyError ? new UserError(e.message) : e;
}

