import { ErrorText } from '@contract/errors';

/** One HTTP request of a check. */
export interface ProbeRequest {
  readonly method: string;
  /** The full URL. */
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON with `Content-Type: application/json`. */
  readonly json?: unknown;
}

/** One HTTP answer, its body read whole. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON; `undefined` when it is not JSON. */
  readonly json: unknown;
}

/** What a request got: an answer, or why there was none. */
export type Outcome = { readonly answer: Answer } | { readonly noAnswer: string };

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const whyNoAnswer = (error: unknown, timeoutMs: number): string => {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  // Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, a bad port) is its `cause`.
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) return `no answer (${'code' in cause ? String(cause.code) : cause.message})`;
  return `no answer (${error instanceof Error ? error.message : String(error)})`;
};

/**
 * Sends one request and reads its answer whole within `timeoutMs`; never throws. Redirects are not
 * followed: the API answers every request itself, so a redirect is a wrong answer to report.
 */
export const probe = async (request: ProbeRequest, timeoutMs: number): Promise<Outcome> => {
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: { ...(request.json !== undefined && { 'Content-Type': 'application/json' }), ...request.headers },
      body: request.json === undefined ? undefined : JSON.stringify(request.json),
      redirect: 'manual',
      // Covers reading the body too: the signal aborts the stream.
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return { answer: { status: response.status, headers: response.headers, text, json: parseJson(text) } };
  } catch (error) {
    return { noAnswer: whyNoAnswer(error, timeoutMs) };
  }
};

const SHOWN_BODY_CHARS = 200;
const errorTexts = new Set<string>(Object.values(ErrorText));

/**
 * An answer in a few words. `withBody` shows its body (shortened); otherwise only an error text of
 * the contract is shown, so an answer that may carry a credential (a new token's) is never printed.
 */
export const describeOutcome = (outcome: Outcome, withBody: boolean): string => {
  if ('noAnswer' in outcome) return outcome.noAnswer;
  const { status, text, json } = outcome.answer;
  if (withBody) {
    const body = text.length > SHOWN_BODY_CHARS ? `${text.slice(0, SHOWN_BODY_CHARS)}…` : text;
    return body ? `${status} ${body}` : String(status);
  }
  const error = typeof json === 'object' && json !== null && 'error' in json ? json.error : undefined;
  return typeof error === 'string' && errorTexts.has(error) ? `${status} ${JSON.stringify(error)}` : String(status);
};
