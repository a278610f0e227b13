/**
 * Staging folders left behind by a run that was killed (SIGKILL, out of memory, a lost
 * container): a run removes its staging folder when it ends, but a killed process cannot.
 * Their names carry the process id of the run that made them (`.staging-<pid>-XXXXXX`); a
 * folder is stale when that process no longer runs, when it is this process's id (a new
 * container reuses small ids) or when its name has no id (older versions).
 */
import fs from 'node:fs';
import path from 'node:path';

export const STAGING_PREFIX = '.staging-';

export interface RemovedStaging {
  /** Path relative to the data folder, for example `out/.staging-41-Ab12Cd`. */
  relative: string;
  bytes: number;
  /** Why it could not be removed (it is left as it is; the run goes on). */
  failure?: string;
}

function processRuns(pid: number): boolean {
  // 0 and negative numbers address process groups, not a run.
  if (pid === process.pid || !Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isStale(name: string): boolean {
  const pid = /^\.staging-(\d+)-/.exec(name)?.[1];
  return pid === undefined || !processRuns(Number(pid));
}

function sizeOf(p: string): number {
  try {
    const stat = fs.lstatSync(p);
    if (!stat.isDirectory()) return stat.size;
    return fs.readdirSync(p).reduce((sum, entry) => sum + sizeOf(path.join(p, entry)), 0);
  } catch {
    return 0;
  }
}

/**
 * Removes stale staging folders from `out/` and from `out/tables/` (where a cross-device move
 * lands, moveFiles.ts). Returns what was removed, for the log.
 */
export function removeStaleStaging(dataDir: string): RemovedStaging[] {
  const removed: RemovedStaging[] = [];
  for (const relativeDir of ['out', path.join('out', 'tables')]) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dataDir, relativeDir), { withFileTypes: true });
    } catch {
      continue; // no such folder yet
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || !entry.name.startsWith(STAGING_PREFIX) || !isStale(entry.name)) continue;
      const full = path.join(dataDir, relativeDir, entry.name);
      const bytes = sizeOf(full);
      const relative = path.join(relativeDir, entry.name);
      try {
        fs.rmSync(full, { recursive: true, force: true });
        removed.push({ relative, bytes });
      } catch (error) {
        removed.push({ relative, bytes, failure: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  return removed;
}
