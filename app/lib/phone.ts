/**
 * Nigerian mobile numbers, as people type them: `0803 123 4567`, `+234 803 123 4567`,
 * `2348031234567`, `(0803) 123-4567`, `+234 (0) 803 123 4567`. Stored in one form, E.164
 * (`+2348031234567`), so the same number is always the same text. Only mobiles: the numbers a
 * dispatch rider calls and WhatsApp reaches, whose national form is 0 followed by 70, 80, 81, 90 or
 * 91 and eight more digits. Reading is libphonenumber-js's, with its mobile-only metadata (valid
 * numbers are mobiles), after a few checks of our own on the text's shape.
 */

import { parsePhoneNumberFromString } from "libphonenumber-js/mobile";

/** The first two digits after the leading 0 (or after +234) of a Nigerian mobile number. */
export const MOBILE_PREFIXES = ["70", "80", "81", "90", "91"] as const;

/** Translation keys of the refusals (address namespace). */
export type PhoneProblem = "address.errors.phoneRequired" | "address.errors.phone";

export type PhoneResult = { ok: true; phone: string } | { ok: false; error: PhoneProblem };

/** Longest text looked at: a number with generous spacing fits; anything longer is not a number. */
const MAX_TYPED = 40;

export function parseNigerianMobile(typed: string): PhoneResult {
  const text = typed.trim();
  if (text === "") return { ok: false, error: "address.errors.phoneRequired" };
  // Digits, one leading plus, and the separators people type between groups; nothing else (no
  // extensions, no full-width digits, no letters), before the library reads it.
  if (text.length > MAX_TYPED || !/^\+?[\d\s().-]+$/.test(text)) return { ok: false, error: "address.errors.phone" };
  // `00234…` is the international form dialled from abroad; Nigeria's own exit code (009) is not ours to read.
  const international = text.startsWith("00") ? `+${text.replace(/^00/, "")}` : text;
  const digits = international.replace(/\D/g, "");
  // A national number always carries its trunk 0 (`803 …` alone is refused: it is too easily a typo).
  if (!international.startsWith("+") && !digits.startsWith("0") && !digits.startsWith("234")) return { ok: false, error: "address.errors.phone" };
  const number = parsePhoneNumberFromString(international, { defaultCountry: "NG" });
  if (!number || number.country !== "NG" || !number.isValid()) return { ok: false, error: "address.errors.phone" };
  const national = String(number.nationalNumber);
  if (!/^\d{10}$/.test(national) || !(MOBILE_PREFIXES as readonly string[]).includes(national.slice(0, 2))) {
    return { ok: false, error: "address.errors.phone" };
  }
  return { ok: true, phone: number.number };
}

/** A stored number (E.164) as people read it: `+234 803 123 4567`. Anything else is shown as it is. */
export function formatPhone(phone: string): string {
  const match = /^\+234(\d{3})(\d{3})(\d{4})$/.exec(phone);
  return match ? `+234 ${match[1]} ${match[2]} ${match[3]}` : phone;
}

/** The `tel:` link of a stored number. */
export function telHref(phone: string): string {
  return `tel:${phone}`;
}

/** The WhatsApp chat link of a stored number (wa.me takes the digits only). */
export function whatsAppHref(phone: string): string {
  return `https://wa.me/${phone.replace(/\D/g, "")}`;
}
