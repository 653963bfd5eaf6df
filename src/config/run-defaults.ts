/** --burst when not given: the load the contract's capacity rule is written for. */
export const DEFAULT_BURST = 50;
export const DEFAULT_RESTART_TIMEOUT = 'PT60S';
