import { CliCommand, ParsedArgs, CliIo } from './command';
import { requireInputs } from './inputs';
import { PUBLIC_INBOX_USAGE, resolveCliInputs } from './fetch';
import { loadThreads } from '../core/load';
import { ThreadJson, threadJson } from '../core/summary';

const usage = `usage: kernel-review threads <input>... [--json]

List the threads in the inputs and the patch series each holds.

Inputs: mbox files (mboxo or mboxrd), .mbox.gz, single messages (.eml, with or
without a "From " line), Maildir folders, - for standard input, or a Message-ID
or lore URL (the thread is fetched from a public-inbox server and cached).

Options:
  --json    print one JSON object: {"threads":[{"rootMessageId","subject",
            "messages","series":[{"version","total","coverMessageId","changeId",
            "baseCommit","patches":[{"index","messageId","subject","author",
            "date","files","trailers":[{"name","value","messageId"}]}]}]}]}

Exit status: 0 success, 1 failure, 2 unusable input.
` + PUBLIC_INBOX_USAGE;

function trailerCounts(t: ThreadJson['series'][number]): string {
  const count = (name: string) => t.patches.reduce((n, p) => n + p.trailers.filter((x) => x.name === name).length, 0);
  const parts = [
    ['Reviewed-by', 'R'],
    ['Acked-by', 'A'],
    ['Tested-by', 'T'],
  ]
    .map(([n, s]) => [count(n), s] as const)
    .filter(([c]) => c > 0)
    .map(([c, s]) => `${s}${c}`);
  return parts.join(' ');
}

function table(threads: ThreadJson[]): string {
  const lines: string[] = [];
  for (const t of threads) {
    lines.push(`${t.subject || '(no subject)'}`);
    lines.push(`  ${t.rootMessageId}  ${t.messages} message${t.messages === 1 ? '' : 's'}`);
    for (const s of t.series) {
      const got = s.patches.length;
      const tc = trailerCounts(s);
      lines.push(`  v${s.version}: ${got}/${s.total} patch${s.total === 1 ? '' : 'es'}${s.coverMessageId ? ' + cover' : ''}${tc ? `  [${tc}]` : ''}${s.baseCommit ? `  base ${s.baseCommit.slice(0, 12)}` : ''}`);
      for (const p of s.patches) {
        lines.push(`    ${String(p.index).padStart(2)}. ${p.subject}`);
        lines.push(`        ${p.author}, ${p.files.length} file${p.files.length === 1 ? '' : 's'}`);
      }
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** Waits until the stream's buffer has been handed to the OS (bounded memory on a slow pipe). */
function drain(out: NodeJS.WritableStream): Promise<void> {
  const w = out as NodeJS.WritableStream & { writableNeedDrain?: boolean };
  return w.writableNeedDrain ? new Promise((r) => out.once('drain', () => r())) : Promise.resolve();
}

export const threadsCommand: CliCommand = {
  name: 'threads',
  summary: 'list the threads and patch series in the inputs',
  usage,
  valueOptions: ['public-inbox'],
  flagOptions: ['json'],
  async run(args: ParsedArgs, io: CliIo) {
    const inputs = await resolveCliInputs(requireInputs(args, 'threads'), args, io);
    const threads = await loadThreads(inputs, { stdin: io.stdin, light: true, signal: io.signal });
    // Written thread by thread: a whole-list archive's index is never one string in memory.
    const json = args.flags.has('json');
    if (json) io.stdout.write('{"threads":[');
    for (const [i, t] of threads.entries()) {
      const tj = threadJson(t);
      if (!json) io.stdout.write(table([tj]));
      else io.stdout.write(`${i ? ',' : ''}${JSON.stringify(tj)}`);
      if (i % 256 === 255) await drain(io.stdout);
    }
    if (json) io.stdout.write(']}\n');
    return 0;
  },
};
