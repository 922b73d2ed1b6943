/**
 * Cross-site request check for every request that can change something: the browser's Origin header
 * (or, when a browser sends none, the Referer) must be the shop's own origin. Returns true when allowed.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function originOf(value: string | undefined): string | null {
  if (!value || value === "null") return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

export function isSameOriginRequest(input: {
  method: string;
  origin?: string;
  referer?: string;
  /** the Host header of the request and the protocol it arrived with */
  host?: string;
  protocol: string;
  publicUrl: string;
}): boolean {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return true;
  const claimed = originOf(input.origin) ?? originOf(input.referer);
  if (!claimed) return false;
  const own = new Set([new URL(input.publicUrl).origin]);
  if (input.host) own.add(`${input.protocol}://${input.host}`);
  return own.has(claimed);
}
