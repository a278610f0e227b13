/**
 * Moves the staged tables into `out/tables`. A rename is atomic and instant, but only inside one
 * file system: when `out/tables` is a mount of its own (a volume, a tmpfs), renaming from the
 * staging folder fails with EXDEV. Then the files are copied into a hidden staging folder inside
 * `out/tables` (the destination's file system), flushed to disk, and only when every copy is
 * complete renamed into place there. A failed copy (a full disk) removes that folder again, so
 * `out/tables` never holds a half-written or half-moved table set.
 */
import fs from 'node:fs';
import path from 'node:path';
import { stagingPrefix } from './staleStaging.ts';

/** `fs.renameSync`, or a stand-in with the same contract (the seam tests use to raise EXDEV). */
export type RenameFile = (from: string, to: string) => void;

function isCrossDevice(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EXDEV';
}

/** Copies `from` to `to` and flushes the copy to disk before returning. */
function copyDurably(from: string, to: string): void {
  fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
  const fd = fs.openSync(to, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Flushes a directory's entries (the renames) to disk; not every file system allows it. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // fsync on a directory is not supported everywhere (some network file systems); the data is.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Moves every file of `fromDir` into `toDir` (replacing files of the same name). Returns how:
 * `rename` when `toDir` is on the same file system, `copy` when it is not.
 */
export function moveFiles(fromDir: string, toDir: string, rename: RenameFile = fs.renameSync): 'rename' | 'copy' {
  const files = fs.readdirSync(fromDir);
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    try {
      rename(path.join(fromDir, file), path.join(toDir, file));
    } catch (error) {
      if (!isCrossDevice(error)) throw error;
      // The first rename tells: all files share the source and the destination folder.
      copyAcross(fromDir, files.slice(i), toDir, rename);
      return 'copy';
    }
  }
  return 'rename';
}

function copyAcross(fromDir: string, files: readonly string[], toDir: string, rename: RenameFile): void {
  const landing = fs.mkdtempSync(path.join(toDir, stagingPrefix()));
  try {
    for (const file of files) copyDurably(path.join(fromDir, file), path.join(landing, file));
    syncDirectory(landing);
  } catch (error) {
    fs.rmSync(landing, { recursive: true, force: true });
    throw error;
  }
  // Every table is complete on the destination's file system: renames there cannot fail on
  // space, and each one is atomic.
  for (const file of files) rename(path.join(landing, file), path.join(toDir, file));
  fs.rmdirSync(landing);
  syncDirectory(toDir);
}
