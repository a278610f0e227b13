/**
 * The length in lines of each function of a source file, read from its text as Biome formats it:
 * a function starts on a line that declares it (a `function`, a class method, an arrow function
 * assigned to a name) and ends at the first later line that closes a brace at the same
 * indentation. No parser is needed for code in one formatting, and this keeps the check free of
 * a compiler API (TypeScript 7 has no stable one).
 *
 * `node scripts/functionLengths.ts src/component` prints the longest functions of a folder;
 * tests/architecture/layout.test.ts holds the limit.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface FunctionLength {
  name: string;
  /** 1-based line of the declaration. */
  line: number;
  lines: number;
}

const DECLARATION = [
  /^(\s*)(?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s+([\w$]+)/,
  /^(\s*)(?:export\s+)?(?:const|let)\s+([\w$]+)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:\([^)]*\)|[\w$]+)?\s*(?::[^=]+)?=>\s*\{\s*$/,
  /^(\s*)(?:(?:public|private|protected|static|async|override|readonly)\s+)*(?:get\s+|set\s+)?(?!if\b|for\b|while\b|switch\b|catch\b|return\b)([\w$]+)\s*(?:<[^>]*>)?\(/,
];

function declarationAt(text: string): { indent: string; name: string } | undefined {
  for (const pattern of DECLARATION) {
    const m = pattern.exec(text);
    if (m) return { indent: m[1]!, name: m[2]! };
  }
  return undefined;
}

/** The line that closes a declaration at `indent`: `}` at that indentation, maybe followed by `;`, `)` or `,`. */
function closingLine(lines: readonly string[], from: number, indent: string): number | undefined {
  for (let i = from; i < lines.length; i++) {
    const text = lines[i]!;
    if (text.startsWith(`${indent}}`) && !text.startsWith(`${indent}} `) && text.length - indent.length <= 3) return i;
    if (text.startsWith(`${indent}} else`) || text.startsWith(`${indent}} catch`)) continue;
    if (text.length > 0 && !text.startsWith(indent)) return undefined;
  }
  return undefined;
}

export function functionLengths(source: string): FunctionLength[] {
  const lines = source.split('\n');
  const out: FunctionLength[] = [];
  lines.forEach((text, i) => {
    const found = declarationAt(text);
    // A declaration on one line without a body (a signature, a call) has nothing to measure.
    if (!found || text.trimEnd().endsWith(';')) return;
    const end = closingLine(lines, i + 1, found.indent);
    if (end !== undefined) out.push({ name: found.name, line: i + 1, lines: end - i + 1 });
  });
  return out;
}

/** Every function of the `.ts` files under `folder`, longest first, with its file relative to `folder`. */
export function folderFunctionLengths(folder: string): (FunctionLength & { file: string })[] {
  return (fs.readdirSync(folder, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .flatMap((file) => functionLengths(fs.readFileSync(path.join(folder, file), 'utf8')).map((f) => ({ ...f, file })))
    .sort((a, b) => b.lines - a.lines);
}

if (import.meta.main) {
  const folder = process.argv[2] ?? 'src/component';
  for (const f of folderFunctionLengths(folder).slice(0, 10)) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line} ${f.name}`);
}
