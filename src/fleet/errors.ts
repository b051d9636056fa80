/**
 * Typed Fleet API errors. Each has a stable `code`, from which the Slack layer (`slack/refusals/failures.ts`)
 * writes the text a person reads in their language, and an English `userMessage` for logs and
 * records (a rejection quotes the API's own message, so escape it before putting it in mrkdwn);
 * `outcomeUnknown` tells payouts whether the request may have been processed despite the error.
 * No message ever contains the API key or a response body verbatim.
 */
export type FleetErrorCode = 'auth' | 'not_found' | 'rate_limited' | 'unavailable' | 'timeout' | 'connection' | 'bad_response' | 'rejected';

export class FleetError extends Error {
  constructor(
    readonly code: FleetErrorCode,
    readonly userMessage: string,
    readonly details: {
      status?: number;
      /** True when the service may have acted on the request (sent, then no clear answer). */
      outcomeUnknown?: boolean;
      retryAfterMs?: number;
      cause?: unknown;
    } = {},
  ) {
    super(`${code}: ${userMessage}${details.status ? ` (HTTP ${details.status})` : ''}`, { cause: details.cause });
    this.name = 'FleetError';
  }

  get status(): number | undefined {
    return this.details.status;
  }

  get outcomeUnknown(): boolean {
    return this.details.outcomeUnknown ?? false;
  }
}

export class FleetAuthError extends FleetError {
  constructor(status: number) {
    super('auth', 'The Fleet API refused our API key. An admin needs to check FLEET_API_KEY.', { status });
    this.name = 'FleetAuthError';
  }
}

export class FleetNotFoundError extends FleetError {
  constructor(status = 404) {
    super('not_found', 'The Fleet API does not know this address. An admin needs to check FLEET_API_URL.', { status });
    this.name = 'FleetNotFoundError';
  }
}

export class FleetRateLimitError extends FleetError {
  constructor(retryAfterMs: number | undefined) {
    super('rate_limited', 'The Fleet API is limiting our requests right now. Try again in a minute.', { status: 429, retryAfterMs });
    this.name = 'FleetRateLimitError';
  }
}

export class FleetUnavailableError extends FleetError {
  constructor(status: number, outcomeUnknown: boolean) {
    super('unavailable', 'The Fleet API is unavailable right now. Try again in a few minutes.', { status, outcomeUnknown });
    this.name = 'FleetUnavailableError';
  }
}

export class FleetTimeoutError extends FleetError {
  constructor(outcomeUnknown: boolean, cause?: unknown) {
    super('timeout', 'The Fleet API took too long to answer.', { outcomeUnknown, cause });
    this.name = 'FleetTimeoutError';
  }
}

export class FleetConnectionError extends FleetError {
  constructor(outcomeUnknown: boolean, cause?: unknown) {
    super('connection', 'Could not reach the Fleet API.', { outcomeUnknown, cause });
    this.name = 'FleetConnectionError';
  }
}

export class FleetBadResponseError extends FleetError {
  constructor(
    /** What was wrong with the answer, e.g. `not JSON` (technical, not translated). */
    readonly problem: string,
    status: number | undefined,
    outcomeUnknown: boolean,
  ) {
    super('bad_response', `The Fleet API sent an answer we could not read (${problem}).`, { status, outcomeUnknown });
    this.name = 'FleetBadResponseError';
  }
}

export class FleetRejectedError extends FleetError {
  constructor(
    status: number,
    /** The API's own words, untrusted: escape before putting them in mrkdwn. */
    readonly apiMessage: string | undefined,
    /** The API's own error code when it sent one, such as `duplicate_reference`. */
    readonly apiCode?: string,
  ) {
    super('rejected', apiMessage ? `The Fleet API refused the request: ${apiMessage}` : `The Fleet API refused the request (HTTP ${status}).`, { status });
    this.name = 'FleetRejectedError';
  }
}

/** Wraps anything thrown into a FleetError, in the spirit of bolt-js's `asCodedError`. */
export function asFleetError(error: unknown): FleetError {
  if (error instanceof FleetError) return error;
  return new FleetConnectionError(true, error);
}

/**
 * Thrown by a stand-in for the Fleet API (such as the ledger's copy of the transaction list) that
 * cannot answer yet: asking again at the next poll is the expected course, not a failure to report.
 */
export class SourceNotReadyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceNotReadyError';
  }
}
