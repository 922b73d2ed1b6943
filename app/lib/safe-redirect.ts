/**
 * Only same-site relative paths are followed (after sign-in, and back to the page a form was on);
 * anything else goes to the fallback: `//evil.example`, `/\evil.example`, absolute URLs, control
 * characters, or a path too long to be one of ours.
 */
export function safeRedirectPath(target: string | null | undefined, fallback = "/"): string {
  if (!target || typeof target !== "string") return fallback;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters in a path are an attack, not a typo
  if (/[\u0000-\u001f]/.test(target) || target.length > 2000) return fallback;
  return target;
}
