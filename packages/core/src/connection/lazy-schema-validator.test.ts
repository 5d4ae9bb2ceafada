import { describe, expect, it } from 'vitest';
import { LazySchemaValidator } from './lazy-schema-validator.js';

describe('LazySchemaValidator', () => {
  const schema = { type: 'object' as const, properties: { n: { type: 'number' as const } }, required: ['n'] };

  it('checks a result against its schema as the SDK does', () => {
    const validate = new LazySchemaValidator().getValidator<{ n: number }>(schema);
    expect(validate({ n: 1 })).toEqual({ valid: true, data: { n: 1 }, errorMessage: undefined });
    expect(validate({ n: 'one' })).toMatchObject({ valid: false, errorMessage: expect.stringContaining('must be number') });
    expect(validate({})).toMatchObject({ valid: false });
  });

  it('compiles nothing for a schema whose tool is never called: a bad schema fails only at its first result', () => {
    const validator = new LazySchemaValidator();
    const bad = validator.getValidator({ type: 'no-such-type' } as never);
    expect(() => bad({})).toThrow();
  });
});
