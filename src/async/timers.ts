/**
 * Timers whose duration comes from outside (a model's `timeout_seconds`, a setting's minutes).
 * Node keeps a timer's delay in a signed 32-bit count of milliseconds: a longer one (2^31 ms is
 * under 25 days) fires after 1 ms instead, with only a warning — "wait a very long time" becomes
 * "don't wait". Every such timer is armed through here.
 */

/** The longest delay `setTimeout` keeps: 2^31 − 1 ms, about 24.8 days. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delay `setTimeout` honours: below 0 (or NaN) → 0, past the maximum (or infinite) → the maximum. */
export function timerDelay(ms: number): number {
  if (Number.isNaN(ms)) return 0;
  return Math.min(Math.max(ms, 0), MAX_TIMER_MS);
}

/** `setTimeout` with its delay bounded by `timerDelay`. */
export function boundedTimeout(callback: () => void, ms: number): NodeJS.Timeout {
  return setTimeout(callback, timerDelay(ms));
}
