/** Epoch milliseconds, fractional (performance.timeOrigin + performance.now()). */
export type Millis = number;
