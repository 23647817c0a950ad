import type * as vscode from 'vscode';
import type { CommandRunner } from '../platform/commands';
import type { KernelReviewConfig } from '../platform/config';
import type { Log } from '../platform/log';
import type { ReviewIndex } from './comments/reviewIndex';
import type { ThreadStore } from './threads/store';

/** What every feature gets from `activate()`. Features talk to each other through commands and the store. */
export interface FeatureContext {
  readonly extension: vscode.ExtensionContext;
  readonly log: Log;
  readonly store: ThreadStore;
  readonly commands: CommandRunner;
  /** Every placed comment conversation, kept in step with the store. */
  readonly index: ReviewIndex;
  /** Objects a feature publishes in the extension's API (tests read them). */
  readonly api: Record<string, unknown>;
  config(): KernelReviewConfig;
  /** Ties `d` to the extension's lifetime. */
  own<T extends vscode.Disposable>(d: T): T;
  /** Registers a command through the error-reporting wrapper and owns it. */
  command(id: string, title: string, fn: (...args: any[]) => unknown): void;
}

/** A feature: one folder under src/features, registered from extension.ts. */
export interface Feature {
  readonly name: string;
  register(ctx: FeatureContext): void;
}
