import { readlinkSync } from 'node:fs';
import { constants, getPriority, setPriority } from 'node:os';

/**
 * Lowers the calling thread's scheduling priority, and only this thread's: on Linux a thread has a nice value of its
 * own, and `/proc/thread-self` names the thread that reads it. For a thread whose work can wait (the observer's
 * judges) beside one that cannot (the proxy carrying the control plane's traffic): when the cores are busy, the
 * traffic goes first. A thread already at that priority or lower is left as it is. Returns whether the priority was
 * lowered; elsewhere, or when the system refuses, nothing changes.
 */
export function lowerThisThreadsPriority(priority: number = constants.priority.PRIORITY_BELOW_NORMAL): boolean {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (!Number.isInteger(threadId) || threadId <= 0 || getPriority(threadId) >= priority) return false;
    setPriority(threadId, priority);
    return true;
  } catch {
    return false;
  }
}
