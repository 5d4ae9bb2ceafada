import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';

/**
 * What a server connection's SDK client checks tool results with: the SDK's own (ajv), each
 * output schema compiled at the first result of its tool, not when the tools are listed. The
 * SDK compiles every listed tool's schema at once, on the daemon's thread, at each start and
 * re-listing: with 10 servers starting together that was ajv's codegen for every tool before
 * the first of them is called, if it ever is (issue 18, cold start). Results are checked as before.
 * The hub's own SDK server takes it too: its default builds an ajv (~5 ms the first time) for
 * every session before answering initialize, for the approval forms it may never send.
 */
export class LazySchemaValidator implements jsonSchemaValidator {
  #inner: AjvJsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let compiled: JsonSchemaValidator<T> | undefined;
    return (input) => {
      this.#inner ??= new AjvJsonSchemaValidator();
      compiled ??= this.#inner.getValidator<T>(schema);
      return compiled(input);
    };
  }
}
