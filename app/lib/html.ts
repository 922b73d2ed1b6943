/**
 * Escapes text for HTML built by hand (e-mail bodies, a shopper's parts filled into a cached page),
 * exactly as React escapes text and attribute values, so filled-in pages match React's own output.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" })[c]!);
}
