import { CliCommand, CliIo, ParsedArgs, option } from './command';
import { requireInputs } from './inputs';
import { PUBLIC_INBOX_USAGE, resolveCliInputs } from './fetch';
import { loadThread, loadThreads } from '../core/load';
import { formatAddress } from '../core/mail/headers';
import { ReviewComment, Thread } from '../core/model';
import { extractComments } from '../core/review';

const usage = `usage: kernel-review comments <input>... [--thread <message-id>] [--json]

Show the review comments in the reply mails, each anchored to the line of the
patch it addresses (file, side and line number in the patch's own hunks), to
the commit message, or to the patch as a whole.

Inputs: mbox files (mboxo or mboxrd), .mbox.gz, single messages (.eml),
Maildir folders, or - for standard input.

Options:
  --thread <message-id>  only the thread holding this message
  --json                 print one JSON object: {"comments":[{"id","messageId",
                         "author","date","inReplyTo","patchMessageId","kind",
                         "file","side","line","body"}]}

Without --json the comments are grouped by patch and file.
Exit status: 0 success, 1 failure, 2 unusable input.
` + PUBLIC_INBOX_USAGE;

interface CommentJson {
  id: string;
  messageId: string;
  author: string;
  date: string | null;
  inReplyTo: string | null;
  patchMessageId: string | null;
  kind: ReviewComment['kind'];
  file: string | null;
  side: ReviewComment['side'];
  line: number | null;
  body: string;
}

function toJson(c: ReviewComment): CommentJson {
  return {
    id: c.id,
    messageId: c.messageId,
    author: formatAddress(c.author),
    date: c.date && !Number.isNaN(c.date.getTime()) ? c.date.toISOString() : null,
    inReplyTo: c.inReplyTo,
    patchMessageId: c.patchMessageId,
    kind: c.kind,
    file: c.file,
    side: c.side,
    line: c.line,
    body: c.body,
  };
}

/** Title of each patch (or cover) by Message-ID, for the text listing. */
function titles(threads: Thread[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of threads) {
    for (const m of t.messages) out.set(m.messageId, m.subject);
    for (const s of t.series) for (const p of s.patches) out.set(p.messageId, p.commitTitle || p.subject.title);
  }
  return out;
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((l) => (l ? prefix + l : prefix.trimEnd()))
    .join('\n');
}

function listing(comments: ReviewComment[], names: Map<string, string>): string {
  const byPatch = new Map<string, ReviewComment[]>();
  for (const c of comments) {
    const key = c.patchMessageId ?? '';
    const list = byPatch.get(key) ?? [];
    list.push(c);
    byPatch.set(key, list);
  }
  const out: string[] = [];
  for (const [patch, list] of byPatch) {
    out.push(patch ? `${names.get(patch) ?? '(patch not in the inputs)'}  ${patch}` : 'Not about a patch');
    const byFile = new Map<string, ReviewComment[]>();
    for (const c of list) {
      const key = c.kind === 'line' ? (c.file ?? '(file not named in the quote)') : c.kind === 'commit-message' ? '(commit message)' : '(general)';
      byFile.set(key, [...(byFile.get(key) ?? []), c]);
    }
    for (const [file, cs] of byFile) {
      out.push(`  ${file}`);
      for (const c of cs) {
        const where = c.kind === 'line' ? `${c.side === 'old' ? '-' : '+'}${c.line ?? '?'} ` : '';
        const reply = c.inReplyTo ? ` (answers ${c.inReplyTo})` : '';
        out.push(`    ${where}${formatAddress(c.author)}${reply}`);
        out.push(indent(c.body, '      | '));
      }
    }
    out.push('');
  }
  return out.join('\n');
}

export const commentsCommand: CliCommand = {
  name: 'comments',
  summary: "list reviewers' comments, anchored to the patch lines they address",
  usage,
  valueOptions: ['thread', 'public-inbox'],
  flagOptions: ['json'],
  async run(args: ParsedArgs, io: CliIo) {
    const inputs = await resolveCliInputs(requireInputs(args, 'comments'), args, io);
    const wanted = option(args, 'thread');
    const threads = wanted
      ? [await loadThread(inputs, wanted, { stdin: io.stdin, signal: io.signal })]
      : await loadThreads(inputs, { stdin: io.stdin, signal: io.signal });
    const comments = threads.flatMap(extractComments);
    io.stdout.write(args.flags.has('json') ? `${JSON.stringify({ comments: comments.map(toJson) })}\n` : listing(comments, titles(threads)));
    return 0;
  },
};
