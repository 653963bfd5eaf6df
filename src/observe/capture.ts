/**
 * The bytes of a body as they flow past, kept up to a limit: what passes is never held beyond it, and the
 * whole body's size is known at the end. Recording only: the bytes themselves flow on untouched.
 */
export class BodyCapture {
  readonly chunks: Buffer[] = [];
  private kept = 0;
  private total = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.kept >= this.limit) return;
    const room = this.limit - this.kept;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(part);
    this.kept += part.length;
  }

  /** The body was longer than the limit: what is kept is its head. */
  get truncated(): boolean {
    return this.total > this.kept;
  }

  get bytes(): number {
    return this.total;
  }

  /** Bytes kept: what this capture holds. */
  get keptBytes(): number {
    return this.kept;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
