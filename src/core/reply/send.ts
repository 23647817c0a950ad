/**
 * Sending a draft: through `git send-email` with the user's `sendemail.*`
 * configuration, or through the small SMTP client. Either way the draft is
 * only read; on failure it is still there and the error is one sentence.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { displayAddress, formatAddress } from './address';
import { addresses, envelopeRecipients, parseDraft, renderMail, transferEncoding } from './draft';
import { ReplyError } from './errors';
import { SmtpResult, SmtpSettings, smtpSend } from './smtp';
import { writeFileAtomic } from './atomic';

export interface SendSummary {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
}

/** What the confirmation shows before anything is sent. */
export function summarize(text: string): SendSummary {
  const d = parseDraft(text);
  const list = (n: string) => addresses(d, n).map(displayAddress);
  const from = addresses(d, 'from');
  if (!from.length) throw new ReplyError('no-identity', 'The draft has no From address; set your identity and create the reply again.');
  return {
    from: displayAddress(from[0]),
    to: list('to'),
    cc: list('cc'),
    bcc: list('bcc'),
    subject: d.headers.find((h) => h.name.toLowerCase() === 'subject')?.value ?? '',
  };
}

function sender(text: string): string {
  const from = addresses(parseDraft(text), 'from');
  if (!from.length || !from[0].address) {
    throw new ReplyError('no-identity', 'The draft has no From address; set your identity and create the reply again.');
  }
  return from[0].address;
}

export async function sendViaSmtp(text: string, settings: SmtpSettings): Promise<SmtpResult> {
  const from = sender(text);
  const to = envelopeRecipients(parseDraft(text));
  return smtpSend(settings, { from, to }, (caps) => {
    const force = !caps.has('8BITMIME');
    const bytes = renderMail(text, { eol: '\r\n', forceQuotedPrintable: force });
    return { bytes, eightBit: transferEncoding(parseDraft(text), { forceQuotedPrintable: force }) === '8bit' };
  });
}

export interface GitSendOptions {
  /** The tree whose git configuration (`sendemail.*`) applies. */
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Extra arguments, e.g. `--smtp-server=…` in tests; never mail text. */
  extraArgs?: string[];
}

/** Runs `git send-email` on the rendered draft; recipients are exactly the draft's To/Cc/Bcc. */
export async function sendViaGit(text: string, opts: GitSendOptions): Promise<string> {
  const d = parseDraft(text);
  const from = formatAddress(addresses(d, 'from')[0] ?? { name: '', address: sender(text) });
  if (envelopeRecipients(d).length === 0) throw new ReplyError('no-recipients', 'The draft has no recipient in To, Cc or Bcc.');
  const bcc = addresses(d, 'bcc').map((a) => `--bcc=${a.address}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kernel-review-send-'));
  const file = path.join(dir, 'reply.eml');
  try {
    await writeFile(file, renderMail(text));
    const args = [
      'send-email',
      '--confirm=never',
      '--no-format-patch',
      '--no-to',
      '--no-cc',
      '--no-bcc',
      '--suppress-cc=self',
      '--suppress-cc=body',
      '--suppress-cc=cccmd',
      '--no-annotate',
      `--from=${from}`,
      ...bcc,
      ...(opts.extraArgs ?? []),
      file,
    ];
    return await new Promise<string>((resolve, reject) => {
      const child = execFile('git', args, { cwd: opts.cwd, env: opts.env ?? process.env, encoding: 'utf8', maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const out = `${stderr}\n${stdout}`;
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
          return reject(new ReplyError('send-email-missing', 'Git is not installed or not on PATH, so git send-email cannot run.'));
        }
        if (/'send-email' is not a git command|git-send-email: not found|No such file or directory.*send-email/.test(out)) {
          return reject(new ReplyError('send-email-missing', 'The git send-email command is not installed (on Debian and Ubuntu it comes with the git-email package).'));
        }
        const line = out.split('\n').map((l) => l.trim()).filter((l) => l && !/^(OK\. Log says|Server:|MAIL FROM|RCPT TO|From:|To:|Cc:|Subject:|Date:|Message-I[dD]|In-Reply-To|References|X-Mailer|MIME|Content-|Result:)/i.test(l));
        const found = line.find((l) => /error|fail|unable|refus|denied|fatal|died/i.test(l)) ?? line[line.length - 1] ?? `exit status ${err.code}`;
        // Perl's "at /usr/lib/git-core/git-send-email line 1674." and anything after the first sentence go to the log only.
        const why = found.replace(/ at \S+ line \d+\.?$/, '').replace(/^(fatal|error):\s*/i, '').split(/(?<=\.)\s/)[0].replace(/\.$/, '');
        reject(new ReplyError('send-email-failed', `Sending with git send-email failed: ${why}.`));
      });
      child.stdin?.end();
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Saves the mail as it would be sent (LF line ends) to `file`. */
export async function exportEml(text: string, file: string): Promise<void> {
  await writeFileAtomic(file, renderMail(text));
}
