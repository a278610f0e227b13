/** A data error raised while analysing (the caller prefixes `Error parsing response JSON: `). */
export class StructureError extends Error {
  /** Raised because a member named `[]` is taken for the list-item marker (the reference's way). */
  readonly bracketMember: boolean;

  constructor(message: string, bracketMember = false) {
    super(message);
    this.name = 'StructureError';
    this.bracketMember = bracketMember;
  }
}
