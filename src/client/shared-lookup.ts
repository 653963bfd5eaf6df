import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup that calls held at once share: a run opens tens of connections to one host in its first moment,
 * and each would otherwise ask the resolver on its own, queued behind the others on libuv's few threads — a host
 * that does not resolve then took seconds to say so. Nothing is kept once the answer came: a later connection
 * asks again, so a changed record is seen.
 */
export function sharedLookup(): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  const pending = new Map<string, LookupCallback[]>();
  return (hostname, options, callback) => {
    const key = `${hostname}\u0000${options.family ?? 0}\u0000${options.all === true}\u0000${options.hints ?? 0}`;
    const waiting = pending.get(key);
    if (waiting) {
      waiting.push(callback);
      return;
    }
    const callbacks = [callback];
    pending.set(key, callbacks);
    dnsLookup(hostname, { ...options, all: options.all === true } as LookupOptions & { all: boolean }, (error, address, family) => {
      pending.delete(key);
      for (const each of callbacks) each(error, address as string | LookupAddress[], family);
    });
  };
}
