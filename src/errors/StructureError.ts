/** A data error raised while analysing (the caller prefixes `Error parsing response JSON: `). */
export class StructureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StructureError';
  }
}
