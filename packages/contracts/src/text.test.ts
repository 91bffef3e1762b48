/** The safe-text rule of the boundary. */
import { describe, expect, it } from 'vitest';
import { Compile } from 'typebox/compile';
import Type from 'typebox';
import { findUnsafeText, isMultiLineText, isSingleLineText, MultiLine, SingleLine } from './text';
import { RegistrationBody } from './auth';

describe('SingleLine and MultiLine', () => {
  it('take ordinary text of any script, emoji (surrogate pairs) included', () => {
    for (const text of ['Mari Maasikas', 'Õie-Ülle Šõru', 'Ђорђе', '李小龍', 'tiim 😀🌸', '']) {
      expect(isSingleLineText(text)).toBe(true);
      expect(isMultiLineText(text)).toBe(true);
    }
  });

  it('refuse NUL, lone surrogates, C0 and C1 controls and DEL everywhere', () => {
    for (const text of ['Evil\u0000Name', 'a\uD800', '\uDC00b', 'x\uDBFF\uDBFFy', 'bell\u0007', 'esc\u001B', 'del\u007F', 'nel\u0085', 'c1\u009F']) {
      expect(isSingleLineText(text), JSON.stringify(text)).toBe(false);
      expect(isMultiLineText(text), JSON.stringify(text)).toBe(false);
    }
  });

  it('allow tab and line breaks in multi-line text only', () => {
    for (const text of ['rida 1\nrida 2', 'a\tb', 'a\r\nb']) {
      expect(isMultiLineText(text)).toBe(true);
      expect(isSingleLineText(text)).toBe(false);
    }
  });

  it('keep the other string options, and the compiled schemas agree with the predicates', () => {
    const name = Compile(SingleLine({ minLength: 1, maxLength: 5 }));
    expect(name.Check('Mari')).toBe(true);
    expect(name.Check('')).toBe(false);
    expect(name.Check('Mari Maasikas')).toBe(false);
    expect(name.Check('M\u0000')).toBe(false);
    const description = Compile(Type.Object({ d: MultiLine() }));
    expect(description.Check({ d: 'rida\nrida' })).toBe(true);
    expect(description.Check({ d: 'rida\u0000' })).toBe(false);
  });

  it('guard every string of the registration body', () => {
    const check = Compile(RegistrationBody);
    const body = {
      full_name: 'Mari', email: 'mari@example.ee', gender: 'FEMALE', birth_year: 1990, password: 'salasõna',
      newsletter: false, type: 'REGISTER_TEAM', team_name: 'Tiim', team_join_code: '', lang: 'est',
    };
    expect(check.Check(body)).toBe(true);
    for (const field of ['full_name', 'email', 'password', 'team_name', 'team_join_code']) {
      expect(check.Check({ ...body, [field]: 'x\u0000y' }), field).toBe(false);
      expect(check.Check({ ...body, [field]: 'x\ty' }), field).toBe(false);
    }
  });
});

describe('findUnsafeText', () => {
  it('finds the first string (or key) holding a character no text may hold, by path', () => {
    expect(findUnsafeText({ a: 'ok', b: ['fine', { c: 'bad\u0000' }] })).toBe('/b/1/c');
    expect(findUnsafeText('\uD800')).toBe('');
    expect(findUnsafeText({ 'k\u0000': 1 })).toBe('/k\\u0000');
  });

  it('lets tab and line breaks pass (single-line fields refuse them by their pattern) and ignores other values', () => {
    expect(findUnsafeText({ d: 'a\nb\tc\r\n', n: 5, t: true, z: null })).toBeNull();
    expect(findUnsafeText(undefined)).toBeNull();
    expect(findUnsafeText(Buffer.from([0]))).toBeNull();
  });

  it('walks objects whose prototype has none itself, as Fastify parses query strings (fast-querystring)', () => {
    function Empty(): void { /* fast-querystring's shape: a prototype without Object.prototype */ }
    Empty.prototype = Object.create(null) as object;
    const query = new (Empty as unknown as new () => Record<string, string>)();
    query.q = 'a\u0000b';
    expect(findUnsafeText(query)).toBe('/q');
    expect(findUnsafeText(Object.assign(Object.create(null) as object, { q: '\u0001' }))).toBe('/q');
    expect(findUnsafeText(new Date(0))).toBeNull();
  });
});
