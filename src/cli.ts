/**
 * `kernel-review`: the headless front end over the same core the extension uses.
 * Exit status: 0 ok, 1 other failure, 2 unusable input or usage, 3 a patch failed to apply.
 */
import { commands } from './cli/commands';
import { parseArgs } from './cli/args';
import { CliIo, EXIT_BAD_INPUT, EXIT_FAILURE, UsageError } from './cli/command';
import { InputError } from './core/model';

function mainHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'usage: kernel-review <command> [options] <input>...',
    '',
    'Review Linux kernel patches from mail. Inputs are mbox files (mboxo or mboxrd),',
    '.mbox.gz, single messages (.eml), Maildir folders, - for standard input, or a',
    'Message-ID or lore URL (fetched from lore.kernel.org or --public-inbox <url>).',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'kernel-review <command> --help' for a command's options.",
    'Exit status: 0 success, 1 failure, 2 unusable input or usage, 3 a patch did not apply.',
    '',
  ].join('\n');
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const target = name === 'help' ? commands.find((c) => c.name === rest[0]) : undefined;
    io.stdout.write(target ? target.usage : mainHelp());
    return name ? 0 : EXIT_BAD_INPUT;
  }
  const cmd = commands.find((c) => c.name === name);
  if (!cmd) {
    io.stderr.write(`kernel-review: unknown command '${name}' (see kernel-review --help)\n`);
    return EXIT_BAD_INPUT;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(cmd.usage);
    return 0;
  }
  try {
    return await cmd.run(parseArgs(cmd, rest), io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`kernel-review ${cmd.name}: ${e.message}\n`);
      return EXIT_BAD_INPUT;
    }
    if (e instanceof InputError) {
      io.stderr.write(`kernel-review: ${e.message}\n`);
      return EXIT_BAD_INPUT;
    }
    const msg = e instanceof Error ? e.message : String(e);
    io.stderr.write(`kernel-review: ${msg.split('\n')[0]}\n`);
    if (process.env.KERNEL_REVIEW_DEBUG && e instanceof Error) io.stderr.write(`${e.stack}\n`);
    return EXIT_FAILURE;
  }
}

if (require.main === module) {
  const ac = new AbortController();
  process.on('SIGINT', () => {
    if (ac.signal.aborted) process.exit(130);
    ac.abort();
  });
  // A closed pipe (`kernel-review threads big.mbox | head`) is not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
  });
  main(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    signal: ac.signal,
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`kernel-review: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = EXIT_FAILURE;
    },
  );
}
