/** Reading what the shop e-mailed, from the raw .eml files of the outbox. */

/** The message's text with quoted-printable soft line breaks and =XX escapes undone (UTF-8). */
export function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === "=" ? joined.slice(i + 1, i + 3) : "";
    if (/^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      for (const b of Buffer.from(joined[i], "utf8")) bytes.push(b);
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The password-reset links in a message (plain-text and HTML parts both carry one). */
export function resetLinks(raw: string): string[] {
  return decodeQuotedPrintable(raw).match(/https?:\/\/[^\s"<>]+\/auth\/reset-password\?token=[A-Za-z0-9_-]+/g) ?? [];
}

/** The registration links in a message (plain-text and HTML parts both carry one). */
export function confirmLinks(raw: string): string[] {
  return decodeQuotedPrintable(raw).match(/https?:\/\/[^\s"<>]+\/auth\/register\/confirm\?token=[A-Za-z0-9_-]+/g) ?? [];
}
