/**
 * Staging folders left behind by a run that was killed (SIGKILL, out of memory, a lost
 * container): a run removes its staging folder when it ends, but a killed process cannot.
 *
 * Whether the run that made a folder still runs cannot be told by its process id alone: two
 * containers with the data folder mounted each have their own PID namespace, where both runs
 * may be PID 1. So a folder's name carries its maker's identity,
 * `.staging-<pid>-<boot>.<pidns>.<start>-XXXXXX`: the machine's boot id, the inode of the PID
 * namespace (/proc/self/ns/pid) and the process's start time in clock ticks since boot
 * (/proc/<pid>/stat). A run in the same boot and the same namespace can check that process
 * exactly (running, and started at that time: a reused id is another process). A folder of
 * another namespace or machine, or of an older version (`.staging-<pid>-XXXXXX`), is judged by
 * a heartbeat instead: a run refreshes its folder's modification time every HEARTBEAT_MS, and
 * the folder is stale once it has been quiet for QUIET_LIMIT_MS, far longer than any pause of
 * a live run. Where /proc does not exist (not Linux) the process id is all there is, as before.
 */
import fs from 'node:fs';
import path from 'node:path';

export const STAGING_PREFIX = '.staging-';

/** How often a live run marks its staging folder as alive. */
export const HEARTBEAT_MS = 30_000;
/** A folder of another namespace not marked for this long belongs to a run that is gone. */
export const QUIET_LIMIT_MS = 15 * 60_000;

export interface RemovedStaging {
  /** Path relative to the data folder, for example `out/.staging-41-Ab12Cd`. */
  relative: string;
  bytes: number;
  /** Why it could not be removed (it is left as it is; the run goes on). */
  failure?: string;
}

interface Identity {
  /** The first 8 hex digits of the boot id. */
  boot: string;
  /** The PID namespace's inode number. */
  ns: string;
  /** The process's start time, in clock ticks since boot. */
  start: string;
}

/** Field 22 of /proc/<pid>/stat (after the command name, which may hold spaces and parentheses). */
function startTicks(pid: number | 'self'): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function readOwnIdentity(): Identity | undefined {
  try {
    const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').replace(/-/g, '').slice(0, 8);
    const ns = /\[(\d+)\]/.exec(fs.readlinkSync('/proc/self/ns/pid'))?.[1];
    const start = startTicks('self');
    if (!/^[0-9a-f]{8}$/.test(boot) || ns === undefined || start === undefined || !/^\d+$/.test(start)) return undefined;
    return { boot, ns, start };
  } catch {
    return undefined;
  }
}

let ownIdentity: Identity | null | undefined;
function own(): Identity | undefined {
  if (ownIdentity === undefined) ownIdentity = readOwnIdentity() ?? null;
  return ownIdentity ?? undefined;
}

/** The name prefix of this process's staging folders (mkdtemp adds six random characters). */
export function stagingPrefix(): string {
  const id = own();
  return `${STAGING_PREFIX}${process.pid}-${id ? `${id.boot}.${id.ns}.${id.start}-` : ''}`;
}

/**
 * Marks `dir` as alive every HEARTBEAT_MS until the returned function is called. The timer does
 * not keep the process running.
 */
export function keepMarkedAlive(dir: string): () => void {
  const timer = setInterval(() => {
    const now = new Date();
    try {
      fs.utimesSync(dir, now, now);
    } catch {
      // Removed meanwhile (the run is ending): nothing left to mark.
    }
  }, HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
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

function quietTooLong(full: string, nowMs: number): boolean {
  try {
    return nowMs - fs.statSync(full).mtimeMs > QUIET_LIMIT_MS;
  } catch {
    return false; // gone already
  }
}

function isStale(name: string, full: string, nowMs: number): boolean {
  const m = /^\.staging-(\d+)-(?:([0-9a-f]{8})\.(\d+)\.(\d+)-)?/.exec(name);
  const ours = own();
  if (m === null) return quietTooLong(full, nowMs);
  const pid = Number(m[1]);
  if (ours === undefined && m[2] === undefined) return !processRuns(pid);
  if (ours !== undefined && m[2] === ours.boot && m[3] === ours.ns) {
    // The same namespace of the same boot: that exact process runs, or the folder is stale.
    return startTicks(pid) !== m[4];
  }
  return quietTooLong(full, nowMs);
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
export function removeStaleStaging(dataDir: string, nowMs: number = Date.now()): RemovedStaging[] {
  const removed: RemovedStaging[] = [];
  for (const relativeDir of ['out', path.join('out', 'tables')]) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dataDir, relativeDir), { withFileTypes: true });
    } catch {
      continue; // no such folder yet
    }
    for (const entry of entries) {
      if (
        !entry.isDirectory() ||
        !entry.name.startsWith(STAGING_PREFIX) ||
        !isStale(entry.name, path.join(dataDir, relativeDir, entry.name), nowMs)
      )
        continue;
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
