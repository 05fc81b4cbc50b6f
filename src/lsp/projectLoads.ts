/**
 * Has the TypeScript server hold every project of the workspace before a workspace-wide question: it
 * answers those (symbols with a query) only from the projects it has loaded, and loads one only when a
 * file of it opens. Each project is loaded once and counts as loaded while the file that loaded it stays
 * open (the server drops a project none of whose files is open); at most PROJECT_LOADS_CAP projects, one
 * after another within a deadline; the caller's wait is cancellable, a load under way goes on behind it.
 */
import * as path from 'node:path';
import { untilAborted } from '../async/abortSignal';
import { DeadlineExceeded, withDeadline } from '../async/deadline';
import { Logger } from '../log/logger';
import { ScriptProject } from '../project/scriptProjects';
import { displayPath, WorkspaceFolderPath } from '../workspace/paths';
import { Freshness } from './freshness';

/** The most projects loaded for one question (each costs the server the memory of a whole program). */
export const PROJECT_LOADS_CAP = 8;

/** How long the projects found in the folders are used before the folders are walked again (one may have been added). */
export const PROJECTS_FOUND_FOR_MS = 30_000;

export interface ProjectLoader {
  /** Opens `entry` without a tab and waits until the server has loaded its project; false when that cannot be checked. */
  load(entry: string): Promise<boolean>;
  /** Whether `entry` is still open in the editor. */
  isOpen(entry: string): boolean;
}

interface Load {
  done: Promise<boolean>;
  settled: boolean;
}

export class ProjectLoads {
  private readonly loads = new Map<string, Load>();
  private found: { readonly key: string; readonly at: number; readonly projects: readonly ScriptProject[] } | undefined;

  constructor(
    private readonly find: (folder: string) => readonly ScriptProject[],
    private readonly loader: ProjectLoader,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** After a restart of the server nothing it held is loaded any more. */
  forget(): void {
    this.loads.clear();
    this.found = undefined;
  }

  /** A tsconfig.json, jsconfig.json or package.json was created, changed or deleted: find the projects again. */
  refind(): void {
    this.found = undefined;
  }

  /** The projects of these folders (a project in two of them once), found again after PROJECTS_FOUND_FOR_MS. */
  projects(folders: readonly string[]): readonly ScriptProject[] {
    const key = folders.join('\n');
    if (this.found?.key === key && this.now() - this.found.at < PROJECTS_FOUND_FOR_MS) return this.found.projects;
    const seen = new Set<string>();
    const projects = folders
      .flatMap((folder) => this.find(folder))
      .filter((project) => !seen.has(project.dir) && seen.add(project.dir));
    this.found = { key, at: this.now(), projects };
    return projects;
  }

  /**
   * Loads the projects of `folders` that are not loaded; says whether all are (`verified`), which could
   * not be and why (`not_verified`), or in which one the deadline of `seconds` passed (`timed_out`).
   * When `signal` aborts, rejects with `cancelled()`.
   */
  async ensure(
    folders: readonly WorkspaceFolderPath[],
    seconds: number,
    signal: AbortSignal,
    cancelled: () => Error,
  ): Promise<Freshness> {
    const projects = this.projects(folders.map((folder) => folder.path));
    if (projects.length === 0) {
      return {
        kind: 'not_verified',
        why: 'no tsconfig.json, jsconfig.json or package.json was found in the workspace, so it is not known whether the language server has loaded its files',
      };
    }
    const name = (project: ScriptProject) => displayPath(folders, path.join(project.dir, project.marker));
    const chosen = projects.slice(0, PROJECT_LOADS_CAP);
    const failed: string[] = [];
    const withoutSource: string[] = [];
    const loadedNow: string[] = [];
    let current: ScriptProject | undefined;
    let stopped = false;
    const started = this.now();
    const loadAll = async (): Promise<void> => {
      for (const project of chosen) {
        if (stopped) return;
        current = project;
        if (!project.entry) {
          withoutSource.push(name(project));
          continue;
        }
        const load = this.loading(project.entry);
        if (!(await load.done)) failed.push(name(project));
        else if (load.started) loadedNow.push(name(project));
      }
    };
    try {
      await untilAborted(withDeadline(loadAll(), seconds, 'the TypeScript server'), signal, cancelled);
    } catch (error) {
      stopped = true;
      if (!(error instanceof DeadlineExceeded)) throw error;
      const waitingFor = current
        ? `the TypeScript server to load the project of ${name(current)}`
        : 'the TypeScript server';
      return { kind: 'timed_out', seconds, waitingFor };
    }
    if (loadedNow.length > 0)
      this.log.info('lsp.projects', `loaded ${loadedNow.join(', ')} in ${this.now() - started} ms`);
    const why = [
      projects.length > chosen.length
        ? `only the first ${chosen.length} of ${projects.length} TypeScript/JavaScript projects were loaded`
        : '',
      failed.length > 0 ? `the TypeScript server could not be asked to load ${failed.join(', ')}` : '',
      withoutSource.length > 0 ? `no source file of ${withoutSource.join(', ')} was found to open` : '',
    ].filter(Boolean);
    return why.length === 0 ? { kind: 'verified' } : { kind: 'not_verified', why: why.join('; ') };
  }

  /** The load of `entry`: the one under way, or done and still holding (its file open), else a new one (`started`). */
  private loading(entry: string): { done: Promise<boolean>; started: boolean } {
    const known = this.loads.get(entry);
    if (known && (!known.settled || this.loader.isOpen(entry))) return { done: known.done, started: false };
    const load: Load = { done: Promise.resolve(false), settled: false };
    const drop = () => {
      if (this.loads.get(entry) === load) this.loads.delete(entry);
    };
    load.done = this.loader.load(entry).then(
      (loaded) => {
        load.settled = true;
        if (!loaded) drop();
        return loaded;
      },
      (error: unknown) => {
        load.settled = true;
        drop();
        throw error;
      },
    );
    this.loads.set(entry, load);
    return { done: load.done, started: true };
  }
}
