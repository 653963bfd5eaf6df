import { describe, expect, it } from 'vitest';
import { JudgeBacklog, observedBytes, proxiedBytes, sizeOf, type BacklogBound, type Waiting } from '../../src/observe/judge-backlog.js';
import { BodyCapture } from '../../src/observe/capture.js';
import type { ProxiedExchange } from '../../src/observe/proxy.js';
import { TranscriptBuilder } from '../support/transcript-builder.js';

const MIB = 1024 * 1024;
const DEFAULT_BOUNDS = { exchanges: 10_000, bytes: 64 * MIB };

/** Offers exchanges of `bytes` each to the backlog while none is taken: how many wait, and the bound that refused the next. */
function fill(backlog: JudgeBacklog, bytes: number, offered: number): { waiting: Waiting; refusedBy: BacklogBound[] } {
  const waiting = { exchanges: 0, bytes: 0 };
  const refusedBy: BacklogBound[] = [];
  for (let i = 0; i < offered; i++) {
    const refused = backlog.refuse(waiting, bytes);
    if (refused === undefined) {
      waiting.exchanges += 1;
      waiting.bytes += bytes;
    } else refusedBy.push(refused);
  }
  return { waiting, refusedBy };
}

describe('the backlog toward the judges', () => {
  it('holds few exchanges near the body limit by their bytes, long before their count', () => {
    const backlog = new JudgeBacklog(DEFAULT_BOUNDS);
    const { waiting, refusedBy } = fill(backlog, MIB, 100);
    expect(waiting).toEqual({ exchanges: 64, bytes: 64 * MIB });
    expect(refusedBy).toEqual(Array(36).fill('bytes'));
    expect(backlog.dropped).toEqual({ exchanges: 0, bytes: 36 });
  });

  it('holds many small exchanges by their count, with bytes to spare', () => {
    const backlog = new JudgeBacklog(DEFAULT_BOUNDS);
    const { waiting, refusedBy } = fill(backlog, 2000, 10_005);
    expect(waiting).toEqual({ exchanges: 10_000, bytes: 20_000_000 });
    expect(refusedBy).toEqual(Array(5).fill('exchanges'));
    expect(backlog.dropped).toEqual({ exchanges: 5, bytes: 0 });
  });

  it('lets one exchange larger than the byte bound wait when nothing else does, and none beside it', () => {
    const backlog = new JudgeBacklog({ exchanges: 10, bytes: 1000 });
    expect(backlog.refuse({ exchanges: 0, bytes: 0 }, 5000)).toBeUndefined();
    expect(backlog.refuse({ exchanges: 1, bytes: 5000 }, 1)).toBe('bytes');
    // Once it was taken, there is room again.
    expect(backlog.refuse({ exchanges: 0, bytes: 0 }, 5000)).toBeUndefined();
  });

  it('says what it dropped and which bound dropped it, and says nothing when it dropped none', () => {
    const backlog = new JudgeBacklog(DEFAULT_BOUNDS);
    expect(backlog.summary()).toBeUndefined();
    fill(backlog, MIB, 66);
    expect(backlog.summary()).toBe(
      '2 exchanges passed on and not judged, the judges having fallen behind the traffic: 2 when those waiting held 64 MiB, the most they may hold (large bodies fill it with fewer exchanges)',
    );
    expect(backlog.refuse({ exchanges: 10_000, bytes: 0 }, 1)).toBe('exchanges');
    expect(backlog.summary()).toBe(
      '3 exchanges passed on and not judged, the judges having fallen behind the traffic: 1 when 10,000 exchanges were waiting, the most that may wait; 2 when those waiting held 64 MiB, the most they may hold (large bodies fill it with fewer exchanges)',
    );
    expect(backlog.reason('bytes')).toBe('the exchanges waiting to be judged held 64 MiB, the most they may; further ones were not judged');
    expect(backlog.reason('exchanges')).toBe('10,000 exchanges were waiting to be judged; further ones were not judged');
  });

  it('counts the bytes an exchange holds: bodies as kept, headers and URL', () => {
    const requestBody = new BodyCapture(1000);
    requestBody.add(Buffer.alloc(300));
    const responseBody = new BodyCapture(1000);
    // Past the limit: only what is kept counts.
    responseBody.add(Buffer.alloc(1500));
    const proxied: ProxiedExchange = {
      method: 'POST',
      url: 'http://127.0.0.1:1/plan',
      path: '/plan',
      requestHeaders: { 'content-type': 'application/json' },
      requestBody,
      sentAt: 0,
      endedAt: 1,
      status: 200,
      responseHeaders: { etag: 'abc' },
      responseBody,
    };
    expect(proxiedBytes(proxied)).toBe(23 + 12 + 16 + 300 + 4 + 3 + 1000);

    const observed = new TranscriptBuilder().post('plan', { status: 200, body: { outcome: 'succeeded', padding: 'x'.repeat(5000) }, requestBody: '{"changes":[]}' });
    const { request, response } = observed;
    const headers = (record: Record<string, string>): number => Object.entries(record).reduce((sum, [name, value]) => sum + name.length + value.length, 0);
    expect(observedBytes(observed)).toBe(request.url.length + headers(request.headers) + 14 + headers(response!.headers) + response!.bodyBytes);
    expect(response!.bodyBytes).toBeGreaterThan(5000);
  });

  it('names sizes as a person reads them', () => {
    expect([sizeOf(64 * MIB), sizeOf(2048), sizeOf(1536), sizeOf(MIB + 1)]).toEqual(['64 MiB', '2 KiB', '1536 bytes', '1048577 bytes']);
  });
});
