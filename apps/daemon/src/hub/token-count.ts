import type { CountTokens } from './context-receipt.js';

/** The tokenizer a receipt counts with: GPT-4o's and GPT-5's encoding (Anthropic publishes none for its current models). */
export const TOKENIZER = 'o200k_base (gpt-tokenizer)';

let loading: Promise<CountTokens> | undefined;

/** The token counter, loaded on first use: its tables cost a few megabytes and 0.3 s, which a daemon that is never asked does not pay. */
export function tokenCounter(): Promise<CountTokens> {
  return (loading ??= import('gpt-tokenizer/encoding/o200k_base').then(
    ({ countTokens }) =>
      (text: string) =>
        countTokens(text),
  ));
}
