/**
 * Which folders a tool call sees as the workspace. A worker that works in a private copy has every
 * tool it calls rooted there: paths resolve inside the copy, the boundary is the copy's real path,
 * answers name files relative to it. The view is held for the call's whole asynchronous flow
 * (Node's AsyncLocalStorage), so no path lookup of any tool can miss it; outside such a call the
 * window's own folders are the workspace.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { WorkspaceFolderPath } from './paths';

const view = new AsyncLocalStorage<readonly WorkspaceFolderPath[]>();

/** The folders this call is rooted in instead of the window's (a worker's copy), if any. */
export function viewedFolders(): readonly WorkspaceFolderPath[] | undefined {
  return view.getStore();
}

/** Runs `work` (and everything it awaits or schedules) with `folders` as the workspace; undefined: the window's. */
export function inFolders<T>(folders: readonly WorkspaceFolderPath[] | undefined, work: () => T): T {
  return folders ? view.run(folders, work) : work();
}
