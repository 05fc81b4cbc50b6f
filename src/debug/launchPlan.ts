/**
 * From what the model asked to a `LaunchPlan`: a launch.json configuration as the file has it, or
 * a configuration written for the program's adapter from one table (how each adapter is told to
 * launch or attach), with the adapter resolved for the program's project. Refuses, naming what is
 * missing, before anything starts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AdapterId, adapterForProgram, adapterSpec, ADAPTERS, resolveAdapter } from './adapters';
import { refusal } from './answers';
import { DebugRefusal } from './debugErrors';
import type { DebugHost, LaunchPlan } from './debugHost';
import { chooseTestRun, testCommandLine, testConfiguration } from './testLaunch';

/** What launch and attach both take. */
interface StartRequest {
  /** The program, relative to the workspace folder: picks the adapter (by its extension) and the project. */
  readonly program?: string;
  readonly adapter?: AdapterId;
  /** launch: the working directory; attach: the project (debugpy runs from its .venv). */
  readonly cwd?: string;
  /** A launch.json configuration's name, instead of all of the above. */
  readonly configuration?: string;
  /** How long to wait for the program to stop once started. */
  readonly timeoutSeconds?: number;
}

export interface LaunchRequest extends StartRequest {
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** One test to run under its runner (testLaunch.ts); `program` is then the test file, when given. */
  readonly test?: string;
}

export interface AttachRequest extends StartRequest {
  readonly port?: number;
  readonly pid?: number;
}

export type SessionStart =
  ({ readonly kind: 'launch' } & LaunchRequest) | ({ readonly kind: 'attach' } & AttachRequest);

/** What every configuration we write holds: the adapter's debug type, the session's name, launch or attach. */
interface BaseConfiguration {
  readonly type: string;
  readonly name: string;
  readonly request: 'launch' | 'attach';
}

interface LaunchFacts {
  readonly program: string | undefined;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** debugpy: the interpreter the resolution chose. */
  readonly python: string | undefined;
}

interface ConfigurationShape {
  launch(base: BaseConfiguration, facts: LaunchFacts): Record<string, unknown>;
  attach(base: BaseConfiguration, target: { readonly port?: number; readonly pid?: number }): Record<string, unknown>;
}

/** How each adapter is told to launch a program or attach to one. */
export const LAUNCH_CONFIGURATIONS: Readonly<Record<AdapterId, ConfigurationShape>> = {
  debugpy: {
    launch: (base, { program, args, cwd, env, python }) => ({
      ...base,
      program,
      args,
      cwd,
      env,
      python,
      console: 'internalConsole',
      justMyCode: true,
    }),
    // `python -m debugpy --listen` runs debugpy's own adapter on that port (see registerDebug).
    attach: (base, { port }) => ({ ...base, connect: { host: '127.0.0.1', port } }),
  },
  js: {
    launch: (base, { program, args, cwd, env }) => ({
      ...base,
      type: 'node',
      program,
      args,
      cwd,
      env,
      console: 'internalConsole',
      outputCapture: 'std',
    }),
    attach: (base, { port }) => ({ ...base, type: 'node', port }),
  },
  delve: {
    // A Go source file is built first ("debug"); anything else is a binary ("exec").
    launch: (base, { program, args, cwd, env }) => ({
      ...base,
      mode: program?.endsWith('.go') ? 'debug' : 'exec',
      program,
      args,
      cwd,
      env,
    }),
    attach: (base, { pid }) => ({ ...base, mode: 'local', processId: pid }),
  },
  lldb: {
    // lldb-dap takes the environment as `K=V` strings.
    launch: (base, { program, args, cwd, env }) => ({
      ...base,
      program,
      args,
      cwd,
      env: Object.entries(env).map(([key, value]) => `${key}=${value}`),
    }),
    attach: (base, { pid }) => ({ ...base, pid }),
  },
  dart: {
    launch: (base, { program, args, cwd, env }) => ({ ...base, program, args, cwd, env }),
    attach: (base, { pid }) => ({ ...base, pid }),
  },
};

type PlanHost = Pick<DebugHost, 'namedConfiguration' | 'contextFor' | 'resolvePath' | 'display'>;

export async function planSession(
  start: SessionStart,
  host: PlanHost,
  exceptions: readonly string[],
  signal?: AbortSignal,
): Promise<LaunchPlan> {
  if (start.kind === 'launch' && start.test !== undefined) {
    if (start.configuration) throw new DebugRefusal(refusal.testOrConfiguration);
    return planTest({ ...start, test: start.test }, host, exceptions, signal);
  }
  if (start.configuration) return planConfiguration(start.configuration, host, exceptions);
  if (start.kind === 'launch' && !start.program) throw new DebugRefusal(refusal.launchNeedsProgram);
  if (start.kind === 'attach' && start.port === undefined && start.pid === undefined)
    throw new DebugRefusal(refusal.attachNeedsTarget);
  const program = start.program ? host.resolvePath(start.program) : undefined;
  if (program && !fs.existsSync(program)) throw new DebugRefusal(refusal.noSuchProgram(start.program as string));
  const spec = start.adapter ? adapterSpec(start.adapter) : program ? adapterForProgram(program) : undefined;
  if (!spec)
    throw new DebugRefusal(
      refusal.whichAdapter(
        ADAPTERS.map((candidate) => candidate.id),
        program && host.display(program),
      ),
    );
  // The project the adapter is chosen for: the program's, else (attach) the one `cwd` names.
  const given = start.cwd ? host.resolvePath(start.cwd) : undefined;
  const { folder, adapter } = host.contextFor(program ?? (given ? path.join(given, 'attach') : undefined));
  const resolution = await resolveAdapter(spec, adapter);
  if (!resolution.ok)
    throw new DebugRefusal(refusal.adapterCannotStart(spec.id, resolution.reason, program === undefined));
  const base: BaseConfiguration = {
    type: spec.debugType,
    name: `Agent: ${program ? path.basename(program) : `${spec.id} attach`}`,
    request: start.kind,
  };
  const shape = LAUNCH_CONFIGURATIONS[spec.id];
  const configuration =
    start.kind === 'attach'
      ? shape.attach(base, { port: start.port, pid: start.pid })
      : shape.launch(base, {
          program,
          args: start.args ?? [],
          cwd: given ?? (program ? path.dirname(program) : folder),
          env: start.env ?? {},
          python: resolution.python,
        });
  return { adapter: spec.id, resolution, detail: resolution.detail, configuration, folder, exceptions };
}

/** Builds a test's launch: the default when Rust's tests are built first and no timeout was given. */
const TEST_BUILD_TIMEOUT_S = 300;

/** One test under its runner's adapter (testLaunch.ts), the adapter resolved for the runner's project. */
async function planTest(
  start: LaunchRequest & { readonly test: string },
  host: PlanHost,
  exceptions: readonly string[],
  signal: AbortSignal | undefined,
): Promise<LaunchPlan> {
  const program = start.program ? host.resolvePath(start.program) : undefined;
  if (program && !fs.existsSync(program)) throw new DebugRefusal(refusal.noSuchProgram(start.program as string));
  const cwd = start.cwd ? host.resolvePath(start.cwd) : undefined;
  const { folder } = host.contextFor(program ?? (cwd ? path.join(cwd, 'test') : undefined));
  const run = chooseTestRun({ test: start.test, program, adapter: start.adapter, cwd }, folder);
  const spec = adapterSpec(run.adapter);
  const { adapter } = host.contextFor(path.join(run.root, 'test'));
  const resolution = await resolveAdapter(spec, adapter);
  if (!resolution.ok) throw new DebugRefusal(refusal.adapterCannotStart(spec.id, resolution.reason, false));
  const prepared = await testConfiguration(run, {
    args: start.args ?? [],
    env: start.env ?? {},
    adapter,
    python: resolution.python,
    timeoutSeconds: start.timeoutSeconds ?? TEST_BUILD_TIMEOUT_S,
    signal,
  });
  const base: BaseConfiguration = { type: spec.debugType, name: `Agent: test ${prepared.run.test}`, request: 'launch' };
  return {
    adapter: spec.id,
    resolution,
    detail: resolution.detail,
    configuration: { ...base, ...prepared.configuration },
    folder,
    exceptions,
    what: `the test ${prepared.run.test} (${testCommandLine(prepared.run)}, in ${host.display(run.root) || '.'})`,
  };
}

/** A launch.json configuration as the file has it; its adapter resolved when it is one of ours. */
async function planConfiguration(name: string, host: PlanHost, exceptions: readonly string[]): Promise<LaunchPlan> {
  const configuration = host.namedConfiguration(name);
  if (!configuration) throw new DebugRefusal(refusal.noConfiguration(name));
  const spec = ADAPTERS.find(
    (candidate) =>
      candidate.debugType === configuration.type ||
      (candidate.id === 'js' && ['node', 'pwa-node'].includes(String(configuration.type))),
  );
  const program = typeof configuration.program === 'string' ? configuration.program : undefined;
  const { folder, adapter } = host.contextFor(program);
  if (!spec)
    return {
      adapter: String(configuration.type),
      detail: 'an adapter of its own extension',
      configuration,
      folder,
      exceptions,
    };
  const resolution = await resolveAdapter(spec, adapter);
  if (!resolution.ok) throw new DebugRefusal(refusal.adapterCannotStart(spec.id, resolution.reason, false));
  return { adapter: resolution.spec.id, resolution, detail: resolution.detail, configuration, folder, exceptions };
}
