/**
 * Shared by the two command lines (src/commandLine.ts, src/platform/commandTable.ts), which sit
 * in one layer and cannot import each other: how an option's value is joined to it, and what a
 * command line node:util's parseArgs refused got wrong, each CLI then wording it in its own voice.
 */
import type { ParseArgsOptionsConfig } from 'node:util';

/**
 * node:util's parseArgs reads a value that starts with `-` (`--limit -1`) as an option and answers
 * with its own text; an option and its value joined (`--limit=-1`) reach the command's own check
 * and its message instead.
 */
export function joinOptionValues(args: readonly string[], joins: (option: string, value: string) => boolean): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    if (next !== undefined && joins(arg, next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else joined.push(arg);
  }
  return joined;
}

/** What was wrong with a command line, and with which option as the user typed it (`--limt`, `-x`, `--json`). */
export interface ArgsProblem {
  kind: 'unknown option' | 'missing value' | 'unexpected value';
  option: string;
}

type OptionToken = { kind: 'option'; name: string; rawName: string; value?: string | undefined; inlineValue?: boolean | undefined };

/** Whether a token of an option known as `spec` is refused for its value, and how. */
function valueProblem(token: OptionToken, spec: ParseArgsOptionsConfig[string]): ArgsProblem['kind'] | undefined {
  if (spec.type === 'boolean') return token.value === undefined ? undefined : 'unexpected value';
  // A string option needs a value; one taken from the next word that starts with `-` is another option (`--stack --json`).
  if (token.value === undefined || (!token.inlineValue && token.value.startsWith('-'))) return 'missing value';
  return undefined;
}

/**
 * The problem behind parseArgs's refusal (strict mode): the kind from the error's `code`, the option
 * from the command line read again without strictness, as tokens. Node's English text is never
 * read, so a Node upgrade can neither change nor break our messages. Anything else is rethrown: a
 * refusal these command lines cannot cause (they allow positionals) is a bug, not a user's mistake.
 */
export function argsProblem(error: unknown, args: readonly string[], options: ParseArgsOptionsConfig): ArgsProblem {
  const code = (error as { code?: unknown }).code;
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && code !== 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw error;
  // Taken by name, as src/commandLine.ts does: an import would load node:util's stream stack into every run.
  const { parseArgs } = process.getBuiltinModule('node:util');
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    const kind = spec === undefined ? 'unknown option' : valueProblem(token, spec);
    if (kind !== undefined && (kind === 'unknown option') === (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'))
      return { kind, option: token.rawName };
  }
  throw error;
}
