import { pjson } from '../php/jsonEncode.ts';
import type { Value } from '../php/value.ts';

/** A response value as JSON text for log context. */
export function logJsonValue(v: Value): string {
  try {
    return pjson(v, 'shortest');
  } catch {
    return '';
  }
}
