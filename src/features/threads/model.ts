import type { ReviewComment, Series, Thread } from '../../core/model';

/** The outcome of applying one series version to a tree. */
export interface AppliedSeries {
  version: number;
  /** Absolute path of the git tree. */
  tree: string;
  /** Full ref name, e.g. refs/heads/review/foo-v2. */
  branch: string;
  base: string;
  baseSource: string;
  commits: { patchMessageId: string; sha: string }[];
  failed: { patchMessageId: string; file: string | null; reason: string } | null;
  appliedAt: string;
  /**
   * Tip positions of line comments (by comment id) checked against the tip's files, where they differ from
   * what the hunk headers give: git applied a hunk at an offset (a base other than the sender's).
   */
  tipLines?: Record<string, { path: string; line: number }>;
}

/** One imported conversation and everything the user did with it. */
export interface StoredThread {
  key: string;
  thread: Thread;
  comments: ReviewComment[];
  sources: string[];
  importedAt: string;
  applied: AppliedSeries[];
}

/** What lists (tree, quick pick) need without loading the whole thread. */
export interface ThreadSummary {
  key: string;
  subject: string;
  author: string;
  date: string | null;
  versions: number[];
  patches: number;
  messages: number;
  comments: number;
  reviewedBy: number;
  ackedBy: number;
  applied: number[];
}

export function seriesTrailerCount(s: Series, name: string): number {
  const all = [...s.coverTrailers, ...Object.values(s.replyTrailers).flat(), ...s.patches.flatMap((p) => p.trailers)];
  return new Set(all.filter((t) => t.name.toLowerCase() === name.toLowerCase()).map((t) => t.value)).size;
}

export function summarize(t: StoredThread): ThreadSummary {
  const root = t.thread.messages.find((m) => m.messageId === t.thread.rootMessageId) ?? t.thread.messages[0];
  const from = root?.from;
  return {
    key: t.key,
    subject: t.thread.subject || '(no subject)',
    author: from ? (from.name ? `${from.name} <${from.address}>` : from.address) : '',
    date: root?.date ? new Date(root.date).toISOString() : null,
    versions: t.thread.series.map((s) => s.version),
    patches: t.thread.series.reduce((n, s) => n + s.patches.length, 0),
    messages: t.thread.messages.length,
    comments: t.comments.length,
    reviewedBy: t.thread.series.reduce((n, s) => n + seriesTrailerCount(s, 'Reviewed-by'), 0),
    ackedBy: t.thread.series.reduce((n, s) => n + seriesTrailerCount(s, 'Acked-by'), 0),
    applied: t.applied.filter((a) => !a.failed).map((a) => a.version),
  };
}
