/** A data error of the legacy parser (compatLevel 1); the parser prefixes it as the reference does and reports it as a user error. */
export class LegacyParseError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'LegacyParseError';
  }
}
