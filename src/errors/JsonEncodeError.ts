/**
 * A value PHP's `json_encode` cannot encode: INF or NaN (a number like `1e400` in a response or
 * in config.json decodes to INF, spec 04 §2.1). PHP's `json_encode` returns `false` there; where
 * the reference uses that `false` (a cell, a length), callers use `pjsonOrFalse`, and where it
 * would have to send or store the text they turn this into a user error naming the value's place.
 */
export class JsonEncodeError extends Error {
  constructor() {
    super('Inf and NaN cannot be JSON encoded');
    this.name = 'JsonEncodeError';
  }
}
