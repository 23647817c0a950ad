import { CliIo, ParsedArgs, UsageError, option } from './command';
import { loadThread, loadThreads } from '../core/load';
import { Thread } from '../core/model';

/** The input paths of a command; at least one is required. */
export function requireInputs(args: ParsedArgs, command: string): string[] {
  if (args.positional.length === 0) throw new UsageError(`no input given (usage: kernel-review ${command} <input>...)`);
  return args.positional;
}

/** The threads of the inputs; with `--thread`, only that thread, decoded without decoding the rest. */
export async function loadInputs(inputs: string[], args: ParsedArgs, io: CliIo): Promise<Thread[]> {
  const wanted = option(args, 'thread');
  if (wanted) return [await loadThread(inputs, wanted, { stdin: io.stdin, signal: io.signal })];
  return loadThreads(inputs, { stdin: io.stdin, signal: io.signal });
}
