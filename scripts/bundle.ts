/**
 * Second step of `npm run build` (after `tsc -p tsconfig.build.json`): bundles the extractor,
 * dist/extractor.js and everything it imports, into one CommonJS script wrapped in its module
 * function, dist/extractor.cjs (run with a code cache made after the run:
 * src/runtime/scriptCache.ts); and, in place, the same for the output worker's code
 * (dist/outputWorker/entry.js, loaded by src/cli.ts in the worker's thread): the worker's bundle
 * leaves out the HTTP stack, the logger and the validators (measured: ~15 ms to load it in a fresh
 * thread, ~45–60 ms for the whole extractor bundle). The command's entry, dist/cli.js, is bundled
 * with what it imports statically (src/runtime/: the compile cache, the worker's and the cache
 * fill's dispatch), and loads the two bundles above as files of their own.
 *
 * Why: loading ~100 ES modules and winston's CommonJS tree (since dropped) file by file was most of the
 * extractor's start-up; one file with V8's compile cache (enabled by src/cli.ts) loads in a
 * fraction of that. A plain run loads dist/cli.js and dist/extractor.cjs and no other file of ours.
 * The rest of dist/ stays as tsc wrote it: the mock server and the platform client run unbundled,
 * and so can the sources (`node src/cli.ts`).
 *
 * - ssh2 stays outside: it has an optional native part, and src/ssh imports it only when a run
 *   configures `sshProxy`; the bundle resolves it from node_modules like dist/ did.
 * - Inside the bundle, `import.meta` of every module is the bundle's: a module of ours that
 *   locates files from its own place would silently look in the wrong folder, so the build
 *   refuses one. The command's entry is the exception: its place is its bundle's (it names
 *   itself as the script of the output worker).
 */
import fs from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { SCRIPT_WRAPPER } from '../src/runtime/scriptCache.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'dist');
export const ENTRY = path.join(DIST, 'extractor.js');
export const WORKER_ENTRY = path.join(DIST, 'outputWorker', 'entry.js');
export const CLI_ENTRY = path.join(DIST, 'cli.js');
export const EXTRACTOR_BUNDLE = path.join(DIST, 'extractor.cjs');

/** Refuses a module of dist/ that reads its own `import.meta` (it would get the bundle's). */
const noOwnImportMeta: Plugin = {
  name: 'no-own-import-meta',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(DIST + path.sep) || args.path === CLI_ENTRY) return undefined;
      const source = fs.readFileSync(args.path, 'utf8');
      if (/import\.meta\.(url|dirname|filename)/.test(source)) {
        throw new Error(`${path.relative(ROOT, args.path)}: import.meta would point at its bundle, not at this module`);
      }
      return { contents: source, loader: 'js' };
    });
  },
};

/**
 * The command's entry imports the extractor and the worker's code when it needs them: they stay
 * files of their own (bundles themselves), imported by their place relative to dist/cli.js.
 */
const otherBundlesOutside: Plugin = {
  name: 'other-bundles-outside',
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      const target = path.resolve(args.resolveDir, args.path);
      if (target !== ENTRY && target !== WORKER_ENTRY) return undefined;
      return { path: './' + path.relative(path.dirname(CLI_ENTRY), target).split(path.sep).join('/'), external: true };
    });
  },
};

/**
 * Node's own modules taken from `process.getBuiltinModule`, not imported: an ES `import` of a
 * builtin builds its module facade, which reads every export, and reading `fs`'s `promises`,
 * `ReadStream`… loads fs/promises, readline and the stream stack (~25 of Node's internal modules,
 * ~10 ms of a one-request job's start; docs/performance.md, issue 28). Each builtin becomes a small
 * ES module of the bundle that re-exports the builtin's plain values, read once; its accessors
 * (the lazy exports above) are left out, so importing one by name fails the build instead of
 * loading it at every start. The names are those of the Node running the build: the pinned one.
 */
const builtinsWithoutFacade: Plugin = {
  name: 'builtins-without-facade',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'node-builtin' }));
    b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({ contents: builtinModule(args.path), loader: 'js' }));
  },
};

/**
 * ssh2 (outside the bundle) is imported when a tunnel opens. A script run by `vm.Script`, as the
 * extractor's bundle is (src/runtime/scriptCache.ts), has no dynamic `import()` without Node's
 * experimental flags, so in that bundle the import becomes a `require` of the same package
 * (ssh2 is CommonJS: the same exports, the same module instance).
 */
const sshByRequire: Plugin = {
  name: 'ssh2-by-require',
  setup(b) {
    b.onResolve({ filter: /^ssh2$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: 'ssh2', namespace: 'ssh2-by-require' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'ssh2-by-require' }, () => ({ contents: 'module.exports = require("ssh2");', loader: 'js' }));
  },
};

/**
 * Builtins loaded on the first call of one of their functions: node:crypto is ~5–10 ms of a start
 * (its ~20 internal modules), and a run hashes only with child jobs, long column names, hash
 * functions or signing. Only their functions are exported (no default, no values, no classes), so
 * a use that would need the module at start, or the class itself, fails the build.
 */
const LOADED_ON_FIRST_CALL = new Set(['node:crypto']);

/** The source of the bundle's module standing for the builtin `id`. */
function builtinModule(id: string): string {
  const builtin = process.getBuiltinModule(id) as Record<string, unknown>;
  const names = Object.getOwnPropertyNames(builtin).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
  const plainValue = (name: string): boolean => 'value' in Object.getOwnPropertyDescriptor(builtin, name)!;
  const quoted = JSON.stringify(id);
  if (LOADED_ON_FIRST_CALL.has(id)) {
    // Functions only, and no classes (capitalised): a forwarding function cannot stand for a class.
    const functions = names.filter((name) => plainValue(name) && typeof builtin[name] === 'function' && /^[a-z]/.test(name));
    return (
      `let m;\nconst load = () => (m ??= process.getBuiltinModule(${quoted}));\n` +
      functions.map((name) => `export function ${name}(...args) { return load().${name}(...args); }\n`).join('')
    );
  }
  return `const m = process.getBuiltinModule(${quoted});\nexport default m;\nexport const { ${names.filter(plainValue).join(', ')} } = m;\n`;
}

/**
 * Rewrites `file` in ASCII: esbuild escapes every other character of the code (its default
 * charset), but keeps the ones of the comments it keeps. One of them makes the whole source a
 * two-byte string, twice the memory and slower to read; src/runtime/scriptCache.ts reads the
 * extractor's bundle as Latin-1, one byte per character. Escaped as `\uXXXX` (UTF-16 units),
 * which would also mean the same character in a string or a regular expression.
 */
function asciiOnly(file: string): void {
  const source = fs.readFileSync(file, 'utf8');
  const escaped = source.replace(/[^\0-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (escaped !== source) fs.writeFileSync(file, escaped);
}

export async function bundle(): Promise<void> {
  for (const entry of [ENTRY, WORKER_ENTRY, CLI_ENTRY]) {
    if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run tsc -p tsconfig.build.json first`);
  }
  /** What every bundle shares: one ES module for Node 24, written over tsc's file. */
  const common = {
    outdir: DIST,
    allowOverwrite: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    logLevel: 'warning',
  } as const;
  // Each bundle whole (no shared chunks): a thread loads one file.
  const worker = await build({
    ...common,
    entryPoints: [{ in: WORKER_ENTRY, out: path.relative(DIST, WORKER_ENTRY).replace(/\.js$/, '') }],
    plugins: [builtinsWithoutFacade, noOwnImportMeta],
  });
  // The extractor as a CommonJS script, which src/runtime/scriptCache.ts loads with a code cache
  // made after a run; tsc's dist/extractor.js stays beside it, unbundled.
  const extractor = await build({
    ...common,
    format: 'cjs',
    entryPoints: [{ in: ENTRY, out: path.basename(EXTRACTOR_BUNDLE, '.cjs') }],
    outExtension: { '.js': '.cjs' },
    // The file is the function Node's CommonJS wrapper would make of it (SCRIPT_WRAPPER), so the
    // loader compiles the text it read as is: wrapping it at load time copied the ~740 KB source
    // into a second string, one young-generation collection more (docs/performance.md, issue 28).
    banner: { js: SCRIPT_WRAPPER.head },
    footer: { js: SCRIPT_WRAPPER.tail },
    external: ['ssh2'],
    plugins: [sshByRequire, builtinsWithoutFacade, noOwnImportMeta],
  });
  if (worker.errors.length > 0 || extractor.errors.length > 0) throw new Error('esbuild failed');
  asciiOnly(EXTRACTOR_BUNDLE);
  const cli = await build({
    ...common,
    entryPoints: [{ in: CLI_ENTRY, out: 'cli' }],
    plugins: [otherBundlesOutside, builtinsWithoutFacade, noOwnImportMeta],
  });
  if (cli.errors.length > 0) throw new Error('esbuild failed');
}

if (import.meta.main) await bundle();
