import { readFile } from 'node:fs/promises';
import { CliCommand, option, UsageError } from './command';
import { loadThread } from '../core/load';
import { PUBLIC_INBOX_USAGE, resolveCliInputs } from './fetch';
import { InputError } from '../core/model';
import { parseCommentsJson } from '../core/reply/comments-file';
import { createReply } from '../core/reply/create';
import { renderMail } from '../core/reply/draft';
import { ReplyError } from '../core/reply/errors';
import { resolveIdentity } from '../core/reply/identity';
import { trailerName } from '../core/reply/trailers';
import { DraftComment } from '../core/reply/compose';

const USAGE = `usage: kernel-review reply <input>... --to <message-id> [--comments <file.json>]
                          [--trailer <name>]... [--from "Name <addr>"] [--date <ISO-8601>]
                          [--message-id <id>] [--draft]

Writes a reply to the message <message-id> to standard output, quoted the
way a kernel reviewer trims a reply: only the hunks your comments are about,
each comment under its line. The mail is ready for git send-email or SMTP.

  --comments <file>   JSON array of {"file","side","line","body"} (side "new" or
                      "old", line in that side's file) or {"kind":"commit-message"|
                      "general","body"}; without it the whole message is quoted
  --trailer <name>    Reviewed-by, Acked-by or Tested-by with your identity
                      (repeatable)
  --from <who>        sender; default git sendemail.from, else user.name/user.email
  --date <when>       date of the reply (default now)
  --message-id <id>   Message-ID of the reply (default a new one)
  --draft             print the editable draft (UTF-8 headers) instead of the mail
` + PUBLIC_INBOX_USAGE;

export const replyCommand: CliCommand = {
  name: 'reply',
  summary: 'compose a reply to a message: trimmed quotes, your comments, trailers',
  usage: USAGE,
  valueOptions: ['to', 'comments', 'trailer', 'from', 'date', 'message-id', 'public-inbox'],
  flagOptions: ['draft'],
  async run(args, io) {
    const to = option(args, 'to');
    if (!to) throw new UsageError('--to <message-id> is required');
    if (args.positional.length === 0) throw new UsageError('give at least one input (mbox, .eml, Maildir or -)');
    const dateText = option(args, 'date');
    const now = dateText ? new Date(dateText) : new Date();
    if (Number.isNaN(now.getTime())) throw new UsageError(`--date "${dateText}" is not a date`);
    const trailers = (args.options.get('trailer') ?? []).map((t) => {
      try {
        return trailerName(t);
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
    });
    let comments: DraftComment[] = [];
    const commentsFile = option(args, 'comments');
    if (commentsFile) {
      let text: string;
      try {
        text = await readFile(commentsFile, 'utf8');
      } catch {
        throw new InputError(commentsFile, 'cannot be read');
      }
      comments = parseCommentsJson(text, commentsFile);
    }
    let identity;
    try {
      identity = await resolveIdentity({ override: option(args, 'from') });
    } catch (e) {
      if (e instanceof ReplyError) {
        io.stderr.write(`kernel-review reply: ${e.message}\n`);
        return 2;
      }
      throw e;
    }
    const inputs = await resolveCliInputs(args.positional, args, io);
    const thread = await loadThread(inputs, to, { stdin: io.stdin, signal: io.signal });
    const reply = createReply({
      thread,
      messageId: to,
      comments,
      trailers,
      identity,
      now,
      tzOffsetMinutes: dateText && /(?:Z|[+-]\d\d:?\d\d)$/.test(dateText) ? tzOf(dateText) : undefined,
      replyMessageId: option(args, 'message-id'),
      source: commentsFile ?? 'comments',
    });
    io.stdout.write(args.flags.has('draft') ? reply.text : renderMail(reply.text));
    return 0;
  },
};

/** Minutes east of UTC written in an ISO-8601 date (`Z`, `+01:00`, `-0700`). */
function tzOf(iso: string): number {
  const m = /([+-])(\d\d):?(\d\d)$/.exec(iso);
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}
