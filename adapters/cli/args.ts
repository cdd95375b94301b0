/** A small argv parser: positional words, `--flag value`, `--flag=value` and bare `--switch`. */

/** Parsed command line. */
export interface Args {
  words: string[];
  flags: Record<string, string | true>;
}

/** Parses `argv` (without node and the script). */
export function parseArgs(argv: string[]): Args {
  const words: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) {
      words.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (inline !== undefined) flags[name] = inline;
    else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) flags[name] = argv[++i];
    else flags[name] = true;
  }
  return { words, flags };
}

/** A string flag, or `fallback`; a bare switch where a value is needed is an error. */
export function stringFlag(args: Args, name: string, fallback?: string): string | undefined {
  const value = args.flags[name];
  if (value === true) throw new Error(`--${name} needs a value`);
  return value ?? fallback;
}

/** A required string flag. */
export function requiredFlag(args: Args, name: string): string {
  const value = stringFlag(args, name);
  if (value === undefined) throw new Error(`--${name} is required`);
  return value;
}

/** A positive integer flag. */
export function integerFlag(args: Args, name: string): number | undefined {
  const value = stringFlag(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a whole number, got "${value}"`);
  return Number(value);
}
