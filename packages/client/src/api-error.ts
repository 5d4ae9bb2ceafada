import type { ErrorBody } from './api-types.js';

/**
 * An error answer from the daemon, with its string code (`NOT_FOUND`, `INVALID_ARGUMENT`, …);
 * `status` 0: no answer at all. Plain data, so the settings page uses it in the browser too.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly reason: string | undefined;
  readonly problems: string[];

  constructor(status: number, body: ErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code;
    this.reason = body.reason;
    this.problems = body.problems ?? [];
  }
}
