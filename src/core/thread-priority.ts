import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the scheduling priority of the calling thread alone (Linux: a thread is a task with an id of its own,
 * and its niceness is its own). A thread that does work which may wait, beside one that serves traffic which may
 * not, leaves the CPU to the other whenever both want it. Returns whether it took effect: elsewhere, or where
 * the system refuses, the thread runs as it was.
 */
export function lowerThisThreadsPriority(niceness: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    // "/proc/thread-self" links to "<pid>/task/<tid>"
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, niceness);
    return true;
  } catch {
    return false;
  }
}
