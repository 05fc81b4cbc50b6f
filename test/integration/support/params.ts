import { RunParams } from '../../support/bridgeProtocol';

// Each suite is bundled on its own, so the parameters travel on globalThis, not in a module.
const KEY = '__liveToolsRunParams';

export function setRunParams(params: RunParams): void {
  (globalThis as Record<string, unknown>)[KEY] = params;
}

export function runParams(): RunParams {
  const params = (globalThis as Record<string, unknown>)[KEY] as RunParams | undefined;
  if (!params) throw new Error('Run parameters are missing: suites must be started through test/integration/index.ts.');
  return params;
}
