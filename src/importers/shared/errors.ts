// Import errors name the input, the place in it and what was expected, so a data editor can fix
// the file or report the source's change of format. Nothing is written when one is thrown.
export interface ImportErrorPlace {
  /** The input file name or URL. */
  input: string;
  /** 1-based row (the header is row 1) or line, when the problem has one. */
  row?: number | undefined;
  /** The column name or 1-based number, when the problem has one. */
  column?: string | number | undefined;
}

export class ImportError extends Error {
  readonly place: ImportErrorPlace;
  readonly expected: string;

  constructor(place: ImportErrorPlace, problem: string, expected: string) {
    const at = [
      place.input,
      place.row === undefined ? null : `row ${place.row}`,
      place.column === undefined ? null : `column ${place.column}`,
    ]
      .filter(Boolean)
      .join(', ');
    super(`${at}: ${problem}\n    expected: ${expected}`);
    this.name = 'ImportError';
    this.place = place;
    this.expected = expected;
  }
}
