/** The body of every control-API error. */
export interface ErrorBody {
  code: string;
  reason?: string;
  message: string;
  problems?: string[];
}
