import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseEnv } from "./config.server";

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "unboxed-config-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("configuration", () => {
  it("starts with no environment at all", () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeNull();
    expect(config.sqlitePath).toBe(path.join(dataDir, "shop.db"));
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.shop.whatsapp).toMatch(/^\d{8,15}$/);
    expect(config.seedDemo).toBe(true);
    expect(config.sharedCacheSeconds).toBe(60);
    expect(loadConfig({ DATA_DIR: dataDir, SHARED_CACHE_SECONDS: "0" }).sharedCacheSeconds).toBe(0);
  });

  it("generates the session secret once and keeps it in the data folder", () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).sessionSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.readFileSync(path.join(dataDir, "session-secret"), "utf8").trim()).toBe(first);
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(first);
    expect(loadConfig({ DATA_DIR: tempDir() }).sessionSecret).not.toBe(first);
  });

  it.each([
    [{ PORT: "abc" }, /^Invalid configuration: PORT must be a whole number \(got "abc"\)$/],
    [{ PORT: "70000" }, /^Invalid configuration: PORT must be between 0 and 65535/],
    [{ DATABASE_URL: "mysql://x" }, /^Invalid configuration: DATABASE_URL must be a postgres:\/\/ URL/],
    [{ PUBLIC_URL: "not a url" }, /^Invalid configuration: PUBLIC_URL must be an absolute http\(s\) URL/],
    [{ SEED_DEMO: "maybe" }, /^Invalid configuration: SEED_DEMO must be true or false/],
    [{ SHOP_WHATSAPP: "call me" }, /^Invalid configuration: SHOP_WHATSAPP must be an international phone number/],
    [{ SESSION_SECRET: "short" }, /^Invalid configuration: SESSION_SECRET must be at least 32 characters/],
    [{ BANK_ACCOUNT_NUMBER: "12-34" }, /^Invalid configuration: BANK_ACCOUNT_NUMBER must be a 10-digit NUBAN account number/],
    [{ BANK_NAME: "GTBank" }, /^Invalid configuration: BANK_ACCOUNT_NAME must be set with the other BANK_ settings/],
    [{ BANK_NAME: "GTBank", BANK_ACCOUNT_NAME: "Unboxed Ltd" }, /^Invalid configuration: BANK_ACCOUNT_NUMBER must be set with the other BANK_ settings/],
    [{ PAY_ON_DELIVERY: "sometimes" }, /^Invalid configuration: PAY_ON_DELIVERY must be true or false/],
    [{ VAT_INCLUDED: "7.5" }, /^Invalid configuration: VAT_INCLUDED must be true or false/],
    [{ SHARED_CACHE_SECONDS: "-1" }, /^Invalid configuration: SHARED_CACHE_SECONDS must be between 0 and 3600/],
    [{ SHARED_CACHE_SECONDS: "1m" }, /^Invalid configuration: SHARED_CACHE_SECONDS must be a number of seconds/],
    [{ PAYSTACK_SECRET_KEY: "pk_test_wrongkind1" }, /^Invalid configuration: PAYSTACK_SECRET_KEY must be a Paystack secret key/],
    [{ PAYSTACK_API_URL: "ftp://api.paystack.co" }, /^Invalid configuration: PAYSTACK_API_URL must start with http/],
    [{ NODE_ENV: "staging" }, /^Invalid configuration: NODE_ENV must be development, production or test/],
  ])("names the variable and the problem for %o", (env, message) => {
    expect(() => parseEnv(env)).toThrow(ConfigError);
    expect(() => parseEnv(env)).toThrow(message);
  });

  it("reads valid values", () => {
    const env = parseEnv({
      PORT: "8080",
      DATABASE_URL: "postgres://shop:pw@db:5432/shop",
      PUBLIC_URL: "https://unboxed.ng/",
      SEED_DEMO: "false",
      SHOP_WHATSAPP: "+234 803 000 1111",
    });
    expect(env.PORT).toBe(8080);
    expect(env.PUBLIC_URL).toBe("https://unboxed.ng");
    expect(env.SEED_DEMO).toBe(false);
    expect(env.SHOP_WHATSAPP).toBe("2348030001111");
  });

  it("offers bank transfer only with the whole account, and pay on delivery unless turned off", () => {
    const none = loadConfig({ DATA_DIR: tempDir() });
    expect(none.shop.bank).toBeNull();
    expect(none.payOnDelivery).toBe(true);
    const all = loadConfig({
      DATA_DIR: tempDir(),
      BANK_NAME: "GTBank",
      BANK_ACCOUNT_NAME: "Unboxed Perfumes Ltd",
      BANK_ACCOUNT_NUMBER: "0123456789",
      PAY_ON_DELIVERY: "false",
    });
    expect(all.shop.bank).toEqual({ name: "GTBank", accountName: "Unboxed Perfumes Ltd", accountNumber: "0123456789" });
    expect(all.payOnDelivery).toBe(false);
  });

  it("says prices include VAT only when VAT_INCLUDED is set (docs/decisions/223)", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).shop.vatIncluded).toBe(false);
    expect(loadConfig({ DATA_DIR: tempDir(), VAT_INCLUDED: "true" }).shop.vatIncluded).toBe(true);
    expect(loadConfig({ DATA_DIR: tempDir(), VAT_INCLUDED: "false" }).shop.vatIncluded).toBe(false);
  });

  it("offers Paystack only with its secret key, against api.paystack.co unless told otherwise", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).paystack).toBeNull();
    expect(loadConfig({ DATA_DIR: tempDir(), PAYSTACK_SECRET_KEY: "sk_test_abcdef123456" }).paystack).toEqual({
      secretKey: "sk_test_abcdef123456",
      publicKey: null,
      apiUrl: "https://api.paystack.co",
    });
    expect(loadConfig({ DATA_DIR: tempDir(), PAYSTACK_SECRET_KEY: "sk_test_abcdef123456", PAYSTACK_API_URL: "http://127.0.0.1:3251/" }).paystack?.apiUrl).toBe("http://127.0.0.1:3251");
  });

  it("holds unpaid orders 48 hours unless ORDER_HOLD_HOURS says otherwise, and refuses nonsense", () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).orderHoldHours).toBe(48);
    expect(loadConfig({ DATA_DIR: dataDir, ORDER_HOLD_HOURS: "6" }).orderHoldHours).toBe(6);
    for (const bad of ["0", "-1", "1.5", "721", "two days"]) {
      expect(() => parseEnv({ ORDER_HOLD_HOURS: bad })).toThrow(/^Invalid configuration: ORDER_HOLD_HOURS /);
    }
  });

  it("bounds what unpaid orders hold: 5 of a product per order, 15 units per account, 30 per address, unless set (docs/decisions/213)", () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).holds).toEqual({ perProduct: 5, perAccount: 15, perIp: 30 });
    expect(loadConfig({ DATA_DIR: dataDir, ORDER_LINE_LIMIT: "3", HELD_UNITS_PER_ACCOUNT: "9", HELD_UNITS_PER_IP: "40" }).holds).toEqual({ perProduct: 3, perAccount: 9, perIp: 40 });
    for (const [name, bad] of [["ORDER_LINE_LIMIT", "0"], ["ORDER_LINE_LIMIT", "1000"], ["HELD_UNITS_PER_ACCOUNT", "1.5"], ["HELD_UNITS_PER_IP", "lots"]]) {
      expect(() => parseEnv({ [name]: bad })).toThrow(new RegExp(`^Invalid configuration: ${name} `));
    }
  });

  it("stops on a data folder it cannot write to", () => {
    // Even root cannot create a folder below a regular file.
    const file = path.join(tempDir(), "a-file");
    fs.writeFileSync(file, "");
    expect(() => loadConfig({ DATA_DIR: path.join(file, "data") })).toThrow(/^Invalid configuration: DATA_DIR .* is not a writable folder/);
  });
});
