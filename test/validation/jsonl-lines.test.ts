// update-many's JSONL lines as a newcomer writes them: the CSV's column names as JSON keys
// (`{"Account": …, "DocumentNumber": …, "email": …}`), or a body field beside the body. Each key it does
// not know is named, with the one meant (the key, never its value), and one missing body is said once.
import { describe, expect, it } from 'vitest';
import { shownName } from '../../src/cli/batch/formats/columns.js';
import { jsonLine, WHOLE_LINE } from '../../src/cli/batch/input.js';

const problems = (text: string) =>
  (jsonLine(7, text)?.issues ?? []).map(({ field, rule }) =>
    field === WHOLE_LINE ? `: ${rule}` : `${field}: ${rule}`,
  );

describe('a JSONL line with keys update-many does not know', () => {
  it('names each, with the one meant: another case, or a body field that goes inside body', () => {
    const said = problems(
      '{"Account":"603837140611","DocumentNumber":"493.322.265-71","email":"maria@exemplo.com.br"}',
    );
    expect(said[0]).toBe(
      ': has fields it does not know: "Account" (did you mean account?), "DocumentNumber" (did you mean documentNumber?), "email" (a body field: put it inside "body") (account, documentNumber, body only)',
    );
    expect(said.join('\n')).not.toContain('603837140611');
    expect(said.join('\n')).not.toContain('maria@');
  });

  it('says a missing body once', () => {
    expect(problems('{"account":"603837140611","documentNumber":"49332226571"}')).toEqual(['body: is required']);
  });

  it('names at most three, then how many more; a key that is no name is not shown', () => {
    const [said] = problems('{"account":"1","documentNumber":"2","body":{},"a":1,"b":2,"c":3,"d":4,"5299822472 5":5}');
    expect(said).toBe(': has fields it does not know: "a", "b", "c" and 2 more (account, documentNumber, body only)');
    const [hidden] = problems('{"account":"1","documentNumber":"2","body":{},"529.982.247-25":1}');
    expect(hidden).toBe(
      ': has a field it does not know: one whose name is not shown (account, documentNumber, body only)',
    );
  });
});

describe("a CSV header's names as the message repeats them", () => {
  it('a name with a hyphen, as pt-BR spreadsheets write E-mail, is shown; a value is not', () => {
    expect(shownName({ index: 2, name: 'E-mail' })).toBe('"E-mail" (column C)');
    expect(shownName({ index: 0, name: 'Nome-Social ' })).toBe('"Nome-Social" (column A)');
    expect(shownName({ index: 1, name: '529.982.247-25' })).toBe('column B');
    expect(shownName({ index: 1, name: '-x' })).toBe('column B');
  });
});
