import { CliCommand, ParsedArgs, UsageError } from './command';

/**
 * Parses `argv` for one command. `--opt value` and `--opt=value` both work;
 * `--` ends options; a lone `-` is a positional (stdin).
 */
export function parseArgs(cmd: CliCommand, argv: string[]): ParsedArgs {
  const positional: string[] = [];
  const options = new Map<string, string[]>();
  const flags = new Set<string>();
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('--') || a === '-') {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    if (cmd.valueOptions.includes(name)) {
      let value: string | undefined;
      if (eq >= 0) value = a.slice(eq + 1);
      else if (i + 1 < argv.length) value = argv[++i];
      if (value === undefined) throw new UsageError(`option --${name} needs a value`);
      const list = options.get(name) ?? [];
      list.push(value);
      options.set(name, list);
    } else if (cmd.flagOptions.includes(name) && eq < 0) {
      flags.add(name);
    } else {
      throw new UsageError(`unknown option --${name} for '${cmd.name}' (see kernel-review ${cmd.name} --help)`);
    }
  }
  positional.push(...argv.slice(i));
  return { positional, options, flags };
}
