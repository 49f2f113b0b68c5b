// The character encoding of an input file: UTF-8 unless the user names another (--encoding). Text is
// decoded in a stream (a character split between two chunks is joined), never whole. UTF-8 is decoded
// strictly: the first byte that is not UTF-8 stops the reading with one message for the whole file,
// naming the encoding it most likely is and both ways out, so a file saved by a spreadsheet as
// Windows-1252 is never half sent (its lines without accents sent, those with accents refused).
//
// Latin-1 (ISO-8859-1) is read as Windows-1252, as the WHATWG Encoding Standard (and so TextDecoder)
// does: every Latin-1 file that holds text is Windows-1252 text, the same characters on the same bytes.
//
// The other way round holds too: a file that is UTF-8 (its byte order mark, or every one of its bytes
// past ASCII in UTF-8 sequences) read with --encoding windows-1252 would be sent with two or three other
// letters for each accented one (`Conceição` as `ConceiÃ§Ã£o`), in every line that has one: such a file is
// refused whole, as is a UTF-16 one whatever the encoding said. Any byte is a Windows-1252 character,
// so nothing else tells a wrong --encoding; Portuguese text in Windows-1252 has its accented letters
// beside ASCII ones, which is never UTF-8.

/** The encodings --encoding takes, by the name the help shows, each with its other spellings. */
export const ENCODINGS = {
  'utf-8': ['utf8'],
  'windows-1252': ['cp1252', 'latin1', 'latin-1', 'iso-8859-1', 'iso8859-1'],
} as const;

export type InputEncoding = keyof typeof ENCODINGS;

/** The encoding `name` names (any case), or undefined. */
export function encodingNamed(name: string): InputEncoding | undefined {
  const wanted = name.trim().toLowerCase();
  for (const [encoding, others] of Object.entries(ENCODINGS) as [InputEncoding, readonly string[]][])
    if (encoding === wanted || others.includes(wanted)) return encoding;
  return undefined;
}

export const encodingNames = (): string => Object.keys(ENCODINGS).join(', ');

/** A file that is not in the encoding it is read with: where, and what it most likely is. */
export class EncodingProblem extends Error {
  constructor(
    /** The line (from 1) of the first byte that does not decode. */
    readonly line: number,
    /** What the bytes most likely are (`UTF-16`, `Windows-1252 (Latin-1)`, `UTF-8`). */
    readonly likely: string,
    /** The encoding the file was read with. */
    readonly readAs: InputEncoding = 'utf-8',
  ) {
    super(`line ${line} is not ${readAs === 'utf-8' ? 'UTF-8' : 'Windows-1252'}; it looks like ${likely}`);
    this.name = 'EncodingProblem';
  }
}

/** The one message for a file that is not UTF-8: the encoding and both fixes. Nothing has been sent. */
export function encodingMessage(path: string, problem: EncodingProblem): string {
  if (problem.likely === 'UTF-16')
    return `--input ${path} is UTF-16 (a byte order mark FF FE or FE FF), not ${problem.readAs === 'utf-8' ? 'UTF-8' : 'Windows-1252'}; nothing was sent: save it as "CSV UTF-8" (in Excel, "CSV UTF-8 (Delimitado por vírgulas)") and run again`;
  if (problem.likely === 'UTF-8')
    return (
      `--input ${path} is UTF-8, not Windows-1252: ${problem.line === 0 ? "it starts with UTF-8's byte order mark (EF BB BF)" : `line ${problem.line} holds an accented letter as UTF-8 writes it`}; ` +
      'read as Windows-1252, each accented letter would be sent as other letters (ç as Ã§); nothing was sent. Run again without --encoding (UTF-8 is the default)'
    );
  return (
    `--input ${path} is not UTF-8: line ${problem.line} holds a byte UTF-8 does not have, as a file saved as ` +
    `${problem.likely} has for accented letters (Excel's "CSV (separado por vírgulas)" saves Windows-1252); ` +
    'nothing was sent. Either run again with --encoding windows-1252, or save the file as "CSV UTF-8" ' +
    '(Excel: "CSV UTF-8 (Delimitado por vírgulas)"; LibreOffice: character set "Unicode (UTF-8)") and run again'
  );
}

const LF = 10;

/**
 * The text of `chunks` decoded with `encoding`, chunk by chunk (memory holds one chunk). A byte order
 * mark is left in the text (the parser drops it). UTF-8 that does not decode throws EncodingProblem.
 */
export async function* decodedText(
  chunks: AsyncIterable<Uint8Array>,
  encoding: InputEncoding = 'utf-8',
): AsyncGenerator<string> {
  const utf8 = encoding === 'utf-8';
  const decoder = new TextDecoder(encoding, { fatal: utf8, ignoreBOM: true });
  // Read as Windows-1252: whether the bytes so far are UTF-8 too, and the line of the first one past ASCII.
  const asUtf8 = utf8 ? undefined : new TextDecoder('utf-8', { fatal: true });
  let stillUtf8 = !utf8;
  let firstNonAscii: number | undefined;
  // Lines before the current chunk, to say where a byte that does not decode is.
  let line = 1;
  let first = true;
  for await (const chunk of chunks) {
    if (first && chunk.byteLength >= 2) {
      const [a, b, c] = chunk;
      if ((a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff)) throw new EncodingProblem(1, 'UTF-16', encoding);
      if (!utf8 && a === 0xef && b === 0xbb && c === 0xbf) throw new EncodingProblem(0, 'UTF-8', encoding);
    }
    first = false;
    if (stillUtf8) {
      try {
        asUtf8!.decode(chunk, { stream: true });
        if (firstNonAscii === undefined) {
          const at = chunk.findIndex((byte) => byte >= 0x80);
          if (at >= 0) firstNonAscii = line + linesBefore(chunk, at);
        }
      } catch {
        stillUtf8 = false;
      }
    }
    try {
      const text = decoder.decode(chunk, { stream: true });
      if (text !== '') yield text;
    } catch {
      throw new EncodingProblem(line + linesBefore(chunk, firstInvalid(chunk)), 'Windows-1252 (Latin-1)');
    }
    line += linesBefore(chunk, chunk.byteLength);
  }
  let rest: string;
  try {
    rest = decoder.decode();
  } catch {
    // A character cut off by the end of the file.
    throw new EncodingProblem(line, 'Windows-1252 (Latin-1)');
  }
  if (stillUtf8 && firstNonAscii !== undefined) {
    try {
      asUtf8!.decode();
    } catch {
      stillUtf8 = false;
    }
    // Before the last text is given: the caller reads the whole file before sending any of it.
    if (stillUtf8) throw new EncodingProblem(firstNonAscii, 'UTF-8', encoding);
  }
  if (rest !== '') yield rest;
}

function linesBefore(bytes: Uint8Array, end: number): number {
  let count = 0;
  for (let i = 0; i < end; i++) if (bytes[i] === LF) count += 1;
  return count;
}

/** Where the first byte that breaks UTF-8 in `bytes` is, about (a sequence cut at the chunk's start counts from 0). */
function firstInvalid(bytes: Uint8Array): number {
  // Halving: the longest prefix that decodes (streaming, so a cut at the end is no error).
  let low = 0;
  let high = bytes.byteLength;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      low = mid;
    } catch {
      high = mid - 1;
    }
  }
  return low;
}
