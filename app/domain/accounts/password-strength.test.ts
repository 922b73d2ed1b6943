import { describe, expect, it } from "vitest";
import { translatorFor } from "~/platform/translations.server";
import { passwordWeakness } from "./password-strength.server";

describe("password strength", () => {
  it("refuses common and guessable passwords, each with its reason", () => {
    expect(passwordWeakness("password")).toBe("auth.errors.passwordCommon");
    expect(passwordWeakness("12345678")).toBe("auth.errors.passwordCommon");
    expect(passwordWeakness("qwertyuiop")).toBe("auth.errors.passwordCommon");
    expect(passwordWeakness("iloveyou123")).not.toBeNull();
    expect(passwordWeakness("P@ssw0rd!")).not.toBeNull();
    expect(passwordWeakness("aaaaaaaaaaaa")).toBe("auth.errors.passwordPattern");
    expect(passwordWeakness("abcdefgh1234")).not.toBeNull();
    expect(passwordWeakness("zxcvbnm,./")).not.toBeNull();
    expect(passwordWeakness("old password")).not.toBeNull();
  });

  it("refuses a password made of the shopper's own name or e-mail", () => {
    expect(passwordWeakness("chiomaeze", ["chioma.eze@example.com", "Chioma", "Eze"])).not.toBeNull();
  });

  it("accepts long passphrases and random strings", () => {
    for (const good of ["correct horse battery", "a good password", "the right one", "Kx9#mQ2!vT", "palm wine at sunset", "p".repeat(4) + "Zq9!kT3#mW7$".repeat(20)]) {
      expect(passwordWeakness(good), good).toBeNull();
    }
  });

  it("has every reason in English and Spanish", () => {
    const keys = ["passwordCommon", "passwordLikeCommon", "passwordPattern", "passwordDates", "passwordPersonal", "passwordWeak"].map((k) => `auth.errors.${k}`);
    for (const lang of ["en", "es"] as const) {
      const t = translatorFor(lang);
      for (const key of keys) expect(t(key), `${lang} ${key}`).not.toBe(key);
    }
    expect(translatorFor("es")("auth.errors.passwordCommon")).not.toBe(translatorFor("en")("auth.errors.passwordCommon"));
  });
});
