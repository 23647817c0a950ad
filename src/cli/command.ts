/** The shape every `kernel-review` subcommand has. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
}

export interface ParsedArgs {
  /** Positional arguments (inputs). */
  positional: string[];
  /** `--name value` options; repeated options keep every value in order. */
  options: Map<string, string[]>;
  /** `--flag` switches. */
  flags: Set<string>;
}

export interface CliCommand {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Full usage text for `kernel-review <cmd> --help`. */
  usage: string;
  /** Options that take a value (others are flags). */
  valueOptions: string[];
  /** Options that are switches. */
  flagOptions: string[];
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

/** Exit statuses of the CLI contract. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_BAD_INPUT = 2;
export const EXIT_APPLY_FAILED = 3;

/** Thrown for wrong command-line usage; printed as one line, exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function option(args: ParsedArgs, name: string): string | undefined {
  const v = args.options.get(name);
  return v ? v[v.length - 1] : undefined;
}
