/**
 * A JSON text the reference's `json_decode` rejects (spec 04 §2.1, 01 §1.2, §3.13).
 *
 * Two wordings exist for the same failure:
 * - `reason` is PHP's own `json_last_error_msg()` text. The reference shows it where it decodes
 *   through PHP directly: `Configuration file is not a valid JSON: Syntax error` (01 §2.4 A2) and
 *   the state-file warning (01 §1.3).
 * - `apiReason` is the wording of the reference's HTTP layer (its own error-code table), used in
 *   `Invalid JSON response from API: JSON decode error: ⟨apiReason⟩` (01 §3.13, 02).
 *
 * The `message` is `reason`.
 */

/** The PHP `JSON_ERROR_*` condition. */
export type JsonErrorCode = 'depth' | 'state-mismatch' | 'ctrl-char' | 'syntax' | 'utf8' | 'utf16' | 'invalid-property-name';

const PHP_MESSAGES: Record<JsonErrorCode, string> = {
  depth: 'Maximum stack depth exceeded',
  'state-mismatch': 'State mismatch (invalid or malformed JSON)',
  'ctrl-char': 'Control character error, possibly incorrectly encoded',
  syntax: 'Syntax error',
  utf8: 'Malformed UTF-8 characters, possibly incorrectly encoded',
  utf16: 'Single unpaired UTF-16 surrogate in unicode escape',
  'invalid-property-name': 'The decoded property name is invalid',
};

const API_MESSAGES: Record<JsonErrorCode, string> = {
  depth: 'Maximum stack depth exceeded',
  'state-mismatch': 'Underflow or the modes mismatch',
  'ctrl-char': 'Unexpected control character found',
  syntax: 'Syntax error, malformed JSON',
  utf8: 'Malformed UTF-8 characters, possibly incorrectly encoded',
  utf16: 'Malformed UTF-16 characters, possibly incorrectly encoded',
  // Not listed by the spec; PHP's own text is the best guess.
  'invalid-property-name': 'The decoded property name is invalid',
};

export class JsonDecodeError extends Error {
  readonly code: JsonErrorCode;
  /** PHP `json_last_error_msg()` text, e.g. `Syntax error`. */
  readonly reason: string;
  /** The HTTP layer's text, e.g. `Syntax error, malformed JSON` (spec 01 §3.13). */
  readonly apiReason: string;

  constructor(code: JsonErrorCode) {
    const reason = PHP_MESSAGES[code];
    super(reason);
    this.name = 'JsonDecodeError';
    this.code = code;
    this.reason = reason;
    this.apiReason = API_MESSAGES[code];
  }
}
