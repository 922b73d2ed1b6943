/**
 * A provider's refusal or an unreachable provider, classified for the message outbox: `permanent`
 * failures (no such number, template not approved) are marked failed at once; the others (rate limited,
 * out of credit, a server error, no answer) are tried again with backoff until the outbox's bound.
 */
export class MessageSendError extends Error {
  constructor(
    /** the provider's code (131026, 132001, insufficient-balance, ...) or timeout/network/http/malformed */
    readonly code: string,
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "MessageSendError";
  }
}

export const PROVIDER_TIMEOUT_MS = 10_000;

/** POSTs JSON and returns the HTTP status and parsed body; a timeout or network fault is a retryable MessageSendError. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}, timeoutMs = PROVIDER_TIMEOUT_MS): Promise<{ status: number; json: unknown }> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "error",
    });
    text = await response.text();
  } catch (error) {
    const name = (error as Error).name;
    if (name === "TimeoutError" || name === "AbortError") throw new MessageSendError("timeout", `no answer within ${timeoutMs} ms`, false);
    throw new MessageSendError("network", (error as Error).message, false);
  }
  try {
    return { status: response.status, json: JSON.parse(text) };
  } catch {
    throw new MessageSendError(response.ok ? "malformed" : "http", `HTTP ${response.status}, not JSON`, false);
  }
}
