import { CliCommand, CliIo, EXIT_APPLY_FAILED, EXIT_OK, option, ParsedArgs, UsageError } from './command';
import { loadInputs, requireInputs } from './inputs';
import { PUBLIC_INBOX_USAGE, resolveCliInputs } from './fetch';
import { requireThread } from '../core/load';
import { InputError, Series, Thread } from '../core/model';
import { applySeries, ApplyResult } from '../core/git/apply';
import { GitError, Repo } from '../core/git/repo';

const usage = `usage: kernel-review apply <input>... --tree <repo> [--thread <message-id>] [--version N]
                            [--base <rev>|auto] [--branch <name>] [--no-link] [--no-reply-trailers]
                            [--json] [--verbose]

Apply a patch series from the inputs to a git repository as one commit per
patch on a review branch (default review/<change-id or subject slug>-v<N>),
with author, date and message from each mail plus a Link: to lore and the
Reviewed-by/Acked-by/Tested-by given in replies. HEAD, the index, the work
tree and the current branch are never touched. Applying the same series again
changes nothing; a new version gets its own branch.

Options:
  --tree <repo>      the repository (default: the current folder)
  --thread <id>      the thread to take the series from (when the inputs hold several)
  --version <N>      which version of the series (default: the newest)
  --base <rev>|auto  the commit to apply on; auto (default) takes the series'
                     base-commit when present here, else guesses from the
                     patches' index lines, else HEAD with a 3-way fallback
  --branch <name>    the branch to create or update
  --no-link          do not add Link: https://lore.kernel.org/r/<message-id>
  --no-reply-trailers  do not add the Reviewed-by/Acked-by/Tested-by given in replies
  --json             print {"branch","base","baseSource","commits":[{"patchMessageId","sha"}],"failed"}
  --verbose          log every git command on standard error

Exit status: 0 every patch applied, 1 failure, 2 unusable input, 3 a patch did not apply.
` + PUBLIC_INBOX_USAGE;

/** The series to work on: the thread's (or the only thread's) newest version, or --version N. */
export function pickSeries(threads: Thread[], args: ParsedArgs, inputs: string[]): { thread: Thread; series: Series } {
  const threadId = option(args, 'thread');
  let candidates = threadId ? [requireThread(threads, threadId, inputs)] : threads.filter((t) => t.series.length > 0);
  if (candidates.length === 0) throw new InputError(inputs.join(', '), 'holds no patch series');
  const versionText = option(args, 'version');
  const version = versionText === undefined ? null : Number(versionText);
  if (version !== null && !(Number.isInteger(version) && version > 0)) throw new UsageError(`--version needs a positive number, not '${versionText}'`);
  if (version !== null) candidates = candidates.filter((t) => t.series.some((s) => s.version === version));
  if (candidates.length > 1) {
    throw new UsageError(`the inputs hold ${candidates.length} threads with patches; choose one with --thread <message-id> (see kernel-review threads)`);
  }
  const thread = candidates[0];
  if (!thread) throw new InputError(inputs.join(', '), `holds no version ${version} of a series`);
  const list = thread.series.filter((s) => (version === null || s.version === version) && s.patches.length > 0);
  if (list.length === 0) throw new InputError(inputs.join(', '), `the thread ${thread.rootMessageId} holds no patches${version ? ` for version ${version}` : ''}`);
  // Newest version first; within it, the series with the most patches.
  list.sort((a, b) => b.version - a.version || b.patches.length - a.patches.length);
  return { thread, series: list[0] };
}

/** The repository given by --tree (default: the current folder); a folder that is not one is unusable input. */
export async function openTree(args: ParsedArgs, io: CliIo): Promise<Repo> {
  const verbose = args.flags.has('verbose');
  const dir = option(args, 'tree') ?? process.cwd();
  try {
    return await Repo.open(dir, { logger: verbose ? (line) => io.stderr.write(`[git] ${line}\n`) : undefined });
  } catch (e) {
    if (e instanceof GitError && e.kind === 'not-a-repo') throw new InputError(dir, 'is not a git repository');
    throw e;
  }
}

function describeFailure(series: Series, r: ApplyResult): string {
  const f = r.failed!;
  const p = series.patches[f.patchIndex];
  return `patch ${p.subject.index ?? f.patchIndex + 1}/${series.total} ${f.patchMessageId} ("${p.commitTitle}") does not apply: ${f.file}: ${f.reason}`;
}

function text(series: Series, r: ApplyResult): string {
  const lines = [`base ${r.base.slice(0, 12)} (${r.baseSource}: ${r.baseDetail})`];
  if (r.failed) {
    lines.push(`nothing was created; ${r.branch} is unchanged`);
    return `${lines.join('\n')}\n`;
  }
  lines.push(`${r.unchanged ? 'already up to date' : 'created'}: ${r.branch} (${r.commits.length} commit${r.commits.length === 1 ? '' : 's'})`);
  r.commits.forEach((c, i) => lines.push(`  ${c.sha.slice(0, 12)} ${series.patches[i].commitTitle}`));
  if (r.threeWay.length) lines.push(`applied with a 3-way merge: ${r.threeWay.join(' ')}`);
  return `${lines.join('\n')}\n`;
}

export const applyCommand: CliCommand = {
  name: 'apply',
  summary: 'apply a patch series to a git tree on a review branch (checkout untouched)',
  usage,
  valueOptions: ['tree', 'thread', 'version', 'base', 'branch', 'public-inbox'],
  flagOptions: ['json', 'verbose', 'no-link', 'no-reply-trailers'],
  async run(args, io) {
    const inputs = await resolveCliInputs(requireInputs(args, 'apply'), args, io);
    const [repo, threads] = await Promise.all([openTree(args, io), loadInputs(inputs, args, io)]);
    const { series } = pickSeries(threads, args, inputs);
    if (!series.complete) {
      io.stderr.write(`kernel-review: warning: version ${series.version} of the series is incomplete (${series.patches.length} of ${series.total} patches); applying what is there\n`);
    }
    const r = await applySeries(repo, series, {
      base: option(args, 'base'),
      branch: option(args, 'branch'),
      trailers: { link: !args.flags.has('no-link'), replyTrailers: !args.flags.has('no-reply-trailers') },
      signal: io.signal,
    });
    if (args.flags.has('json')) {
      const failed = r.failed ? { patchMessageId: r.failed.patchMessageId, file: r.failed.file, reason: r.failed.reason } : null;
      io.stdout.write(`${JSON.stringify({ branch: r.branch, base: r.base, baseSource: r.baseSource, commits: r.commits, failed })}\n`);
    } else {
      io.stdout.write(text(series, r));
    }
    if (r.failed) {
      if (!args.flags.has('json')) io.stderr.write(`kernel-review: ${describeFailure(series, r)}\n`);
      return EXIT_APPLY_FAILED;
    }
    return EXIT_OK;
  },
};
