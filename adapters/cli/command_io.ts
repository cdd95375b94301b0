/** Where the X commands write: the answer on stdout, what a person reads meanwhile on stderr (so `--json` output stays parseable). */

/** A command's output. */
export interface CommandIo {
  /** The answer (stdout). */
  out(text: string): void;
  /** Instructions and progress (stderr). */
  info(text: string): void;
}

/** The process's stdout and stderr. */
export const consoleIo: CommandIo = { out: (text) => console.log(text), info: (text) => console.error(text) };
