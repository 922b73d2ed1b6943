import { createRequire } from "node:module";
import type * as ZxcvbnCore from "@zxcvbn-ts/core";
import type * as ZxcvbnCommon from "@zxcvbn-ts/language-common";

/**
 * Which new passwords are too easy to guess (docs/decisions/082): zxcvbn-ts with its common-password
 * and keyboard dictionaries, on the server only. A password must score 3 of 4 ("safely unguessable":
 * about 10^8 guesses or more); the answer is a translation key saying why it did not.
 */

export const MIN_PASSWORD_SCORE = 3;
/** Only the first 64 characters are weighed: beyond that the analysis costs time and adds nothing. */
export const WEIGHED_LENGTH = 64;

let checker: ZxcvbnCore.ZxcvbnFactory | null = null;
/** Loaded on the first password checked: its dictionaries are about 20 MB the shop need not hold until then. */
function zxcvbn(): ZxcvbnCore.ZxcvbnFactory {
  if (checker) return checker;
  const require = createRequire(import.meta.url);
  const { ZxcvbnFactory: Factory } = require("@zxcvbn-ts/core") as typeof ZxcvbnCore;
  const { adjacencyGraphs, dictionary } = require("@zxcvbn-ts/language-common") as typeof ZxcvbnCommon;
  return (checker = new Factory({
    graphs: adjacencyGraphs,
    dictionary: { ...dictionary },
    useLevenshteinDistance: false,
    maxLength: WEIGHED_LENGTH,
  }));
}

const REASONS: Record<string, string> = {
  topTen: "auth.errors.passwordCommon",
  topHundred: "auth.errors.passwordCommon",
  common: "auth.errors.passwordCommon",
  pwned: "auth.errors.passwordCommon",
  similarToCommon: "auth.errors.passwordLikeCommon",
  wordByItself: "auth.errors.passwordLikeCommon",
  straightRow: "auth.errors.passwordPattern",
  keyPattern: "auth.errors.passwordPattern",
  simpleRepeat: "auth.errors.passwordPattern",
  extendedRepeat: "auth.errors.passwordPattern",
  sequences: "auth.errors.passwordPattern",
  recentYears: "auth.errors.passwordDates",
  dates: "auth.errors.passwordDates",
  userInputs: "auth.errors.passwordPersonal",
};

/**
 * Null when the password is strong enough, else the translation key of the reason. `personal` holds
 * what the password should not be made of (the account's e-mail and names).
 */
export function passwordWeakness(password: string, personal: string[] = []): string | null {
  const inputs = personal.flatMap((value) => [value, ...value.split(/[@.\s_-]+/)]).filter((v) => v.length >= 3);
  const result = zxcvbn().check(password.slice(0, WEIGHED_LENGTH), inputs);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  return REASONS[result.feedback.warning ?? ""] ?? "auth.errors.passwordWeak";
}
