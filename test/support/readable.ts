// A surface as a person (or a log pipeline) reads it, for the tests that look for a CPF or a secret on
// it: NFKC, Arabic-Indic digits as ASCII ones, and percent-encoding undone (up to four layers). Written
// here, independently of src/redact.ts, so that a reading the masking forgets is one these tests make.
const ARABIC_INDIC_ZERO = 0x660;
const PERCENT_LAYERS = 4;

export function readable(text: string): string {
  let out = text
    .normalize('NFKC')
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - ARABIC_INDIC_ZERO));
  for (let round = 0; round < PERCENT_LAYERS; round += 1)
    out = out.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  return out;
}
