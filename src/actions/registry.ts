/**
 * Sync actions by name (`action` in config.json, spec 05 §1.1). Each action lives in its own
 * file and registers itself with a spec that documents it; an unknown name is refused with the
 * list of the known ones.
 */
import type { Value } from '../php/value.ts';
import type { ActionContext } from './context.ts';

export interface SyncActionSpec {
  name: string;
  description: string;
  /** The `parameters` keys the action reads besides the shared dialect, each with what it means (docs/actions.md). */
  inputs: Readonly<Record<string, string>>;
  /** What the answer is (docs/actions.md). */
  answer: string;
  /** The action's answer (printed as Python JSON); throws on failure (→ envelope). */
  run(context: ActionContext): Promise<Value>;
}

const actions = new Map<string, SyncActionSpec>();

export function registerSyncAction(spec: SyncActionSpec): void {
  actions.set(spec.name, spec);
}

export function syncActionNames(): string[] {
  return [...actions.keys()];
}

/** The registered specs in registration order (the order of actions/index.ts's imports). */
export function syncActionSpecs(): SyncActionSpec[] {
  return [...actions.values()];
}

export function getSyncAction(name: string): SyncActionSpec | undefined {
  return actions.get(name);
}
