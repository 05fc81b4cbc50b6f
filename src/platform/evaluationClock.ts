/**
 * When the extension's bundle began evaluating: imported first by extension.ts, so this body runs
 * before every other module of the bundle (activation logs how long evaluating it took).
 */
export const evaluationStarted = performance.now();
