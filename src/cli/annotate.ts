import { CliCommand, EXIT_APPLY_FAILED, EXIT_OK, option } from './command';
import { loadInputs, requireInputs } from './inputs';
import { PUBLIC_INBOX_USAGE, resolveCliInputs } from './fetch';
import { openTree, pickSeries } from './apply';
import { ReviewComment, Series } from '../core/model';
import { extractComments } from '../core/review';
import { applySeries } from '../core/git/apply';
import { remapToTip, TipPosition } from '../core/git/remap';
import { expectedText, snapToTip } from '../core/git/tipsnap';

const usage = `usage: kernel-review annotate <input>... --tree <repo> [--thread <message-id>] [--version N] [--base <rev>|auto]

Apply the series to its review branch (as 'kernel-review apply' does; nothing
changes when it is already there), then print every review comment that
addresses a line of the series, at the file and line it has at the tip of the
review branch, in the grep/quickfix format editors read:

  path:line: Name: first line of the comment

Paths are relative to the top of the tree. A comment on a removed line says
"(old side)" after the name; one whose line a later patch of the series
removed says "(outdated)" and keeps its original position.

Exit status: 0 success, 1 failure, 2 unusable input, 3 a patch did not apply.
` + PUBLIC_INBOX_USAGE;

export interface TipComment {
  comment: ReviewComment;
  at: TipPosition;
  /** The text around the commented line (see expectedText). */
  expect: Array<[number, string]> | null;
}

/** The line comments on the series' patches, carried to the tip, in tip order. */
export function tipComments(series: Series, comments: ReviewComment[]): TipComment[] {
  const out: TipComment[] = [];
  for (const c of comments) {
    if (c.kind !== 'line' || !c.file || c.line === null || !c.patchMessageId) continue;
    const k = series.patches.findIndex((p) => p.messageId === c.patchMessageId);
    if (k < 0) continue;
    const side = c.side ?? 'new';
    out.push({ comment: c, at: remapToTip(series, k, c.file, side, c.line), expect: expectedText(series, k, c.file, side, c.line) });
  }
  return out;
}

function byPosition(a: TipComment, b: TipComment): number {
  return a.at.path < b.at.path ? -1 : a.at.path > b.at.path ? 1 : a.at.line - b.at.line;
}

function clean(s: string): string {
  return s.replace(/[\x00-\x1f\x7f]+/g, ' ').trim();
}

export function quickfixLine(t: TipComment): string {
  const who = clean(t.comment.author.name || t.comment.author.address || 'unknown');
  const flags = [t.at.side === 'old' ? 'old side' : '', t.at.outdated ? 'outdated' : ''].filter(Boolean);
  const first = clean(t.comment.body.split('\n').find((l) => l.trim()) ?? '');
  return `${t.at.path}:${t.at.line}: ${who}${flags.length ? ` (${flags.join(', ')})` : ''}: ${first}`;
}

export const annotateCommand: CliCommand = {
  name: 'annotate',
  summary: 'print review comments at their lines on the review branch tip (quickfix format)',
  usage,
  valueOptions: ['tree', 'thread', 'version', 'base', 'public-inbox'],
  flagOptions: ['verbose'],
  async run(args, io) {
    const inputs = await resolveCliInputs(requireInputs(args, 'annotate'), args, io);
    const [repo, threads] = await Promise.all([openTree(args, io), loadInputs(inputs, args, io)]);
    const { thread, series } = pickSeries(threads, args, inputs);
    const r = await applySeries(repo, series, { base: option(args, 'base'), signal: io.signal });
    if (r.failed) {
      io.stderr.write(`kernel-review: ${r.failed.patchMessageId}: ${r.failed.file}: ${r.failed.reason}\n`);
      return EXIT_APPLY_FAILED;
    }
    const tips = tipComments(series, extractComments(thread));
    // Hunks git applied at an offset put their lines a little away from where the headers say.
    await snapToTip(repo, r.commits[r.commits.length - 1].sha, tips);
    for (const t of tips.sort(byPosition)) io.stdout.write(`${quickfixLine(t)}\n`);
    return EXIT_OK;
  },
};
