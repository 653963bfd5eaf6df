import type { Exchange } from '../transcript/exchange.js';

/**
 * The first wave of a run: the calls sent before the first of them ended, and never fewer than the first
 * {@link MIN_WAVE}. When every one of them ends in a transport error that says nothing can be reached there
 * (refused, a host that does not resolve, a reset, a TLS handshake that failed), the target answers nothing:
 * driving it through every suite would only repeat the same error. Any answer, a timeout (a slow target may
 * answer later) or a stop of the run's own leaves the run to go on and be judged as usual.
 */
export const MIN_WAVE = 3;

export type WaveDecision = 'unreachable' | 'go-on';

/** Whether an exchange's error says the target cannot be reached at all. */
export function unreachableError(exchange: Exchange): boolean {
  const error = exchange.error;
  if (error === undefined) return false;
  if (error.kind === 'refused' || error.kind === 'dns' || error.kind === 'reset') return true;
  return error.kind === 'other' && /\b(TLS|SSL|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)\b/.test(error.message);
}

/** Watches the calls of a run as they are sent and end, and decides once about its first wave. */
export class FirstWaveWatch {
  private sentCount = 0;
  private waveSize: number | undefined;
  private readonly ended: Exchange[] = [];
  private decision: WaveDecision | undefined;

  constructor(private readonly decided: (decision: WaveDecision, wave: readonly Exchange[]) => void) {}

  /** A call is about to be sent. */
  sent(): void {
    this.sentCount++;
  }

  /** A call ended: its exchange is recorded. */
  end(exchange: Exchange): void {
    if (this.decision !== undefined) return;
    // The wave closes when its first call ends: what was in flight then belongs to it.
    this.waveSize ??= Math.max(MIN_WAVE, this.sentCount);
    if (!unreachableError(exchange)) return this.decide('go-on');
    this.ended.push(exchange);
    if (this.ended.length >= this.waveSize) this.decide('unreachable');
  }

  private decide(decision: WaveDecision): void {
    this.decision = decision;
    this.decided(decision, this.ended);
  }
}

/** The reason a run's driving was stopped when its first wave reached nothing. */
export class NothingAnswered extends Error {
  constructor(readonly wave: readonly Exchange[]) {
    super('every call of the first wave ended in a transport error');
    this.name = 'NothingAnswered';
  }
}

/** Whether a signal was aborted because the target answered nothing. */
export function isNothingAnswered(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && signal.reason instanceof NothingAnswered;
}
