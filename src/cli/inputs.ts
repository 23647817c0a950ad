import { ParsedArgs, UsageError } from './command';

/** The input paths of a command; at least one is required. */
export function requireInputs(args: ParsedArgs, command: string): string[] {
  if (args.positional.length === 0) throw new UsageError(`no input given (usage: kernel-review ${command} <input>...)`);
  return args.positional;
}
