/**
 * A text `strtotime` cannot read. Never leaves src/functions/strtotime/: the parser throws it from
 * deep in a token and `phpStrtotime` turns it into PHP's `false`.
 */
export class StrtotimeParseError extends Error {
  constructor(message?: string) {
    super(message);
    this.name = 'StrtotimeParseError';
  }
}
