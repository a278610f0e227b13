/**
 * Shared by the two command lines (src/commandLine.ts, src/platform/commandTable.ts), which sit
 * in one layer and cannot import each other. node:util's parseArgs reads a value that starts
 * with `-` (`--limit -1`) as an option and answers with its own text; an option and its value
 * joined (`--limit=-1`) reach the command's own check and its message instead.
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
