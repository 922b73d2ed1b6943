import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { testContext } from "../../../tests/support/context";
import { ENGINES, freshDatabase, type TestDatabase } from "../../../tests/support/databases";
import { resetLinks } from "../../../tests/support/mail";
import { translatorFor } from "~/platform/translations.server";
import { readOutbox } from "~/platform/mail.server";
import { authenticate, registerCustomer, requestPasswordReset, resetPassword } from "./accounts.server";
import { drainMailOutbox } from "../operations/mail-outbox.server";
import { TooManyAttempts } from "../operations/rate-limits.server";
import type * as passwords from "~/platform/password.server";

// Guessing bounded at the account (docs/decisions/214): whatever the number of addresses and however
// parallel, one account's password is checked at most 5 times, then once every 5 seconds. The count is
// of the password checks themselves, so the test does not depend on how fast the machine is.

const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock("~/platform/password.server", async (importOriginal) => {
  const actual = await importOriginal<typeof passwords>();
  return {
    ...actual,
    verifyPassword: (passwordHash: string, password: string) => {
      checks.count++;
      return actual.verifyPassword(passwordHash, password);
    },
  };
});

const FREE = 5;
const PACE_MS = 5_000;
let ipCounter = 0;
const freshIp = () => `10.51.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

describe.each(ENGINES)("an account guessed at from many addresses on %s", (engine) => {
  let t: TestDatabase;
  let base: ReturnType<typeof testContext>;
  const ctx = (clientIp = freshIp()) => ({ ...base, clientIp });

  /** The clock the limits read (Date only: timers and the database keep real time). */
  let now = 0;
  const at = (ms: number) => vi.setSystemTime(now + ms);
  /** Real time passed, for the memory store, whose records also go when a real timer fires. */
  let startedReal = 0;
  const realSlack = () => Math.floor((performance.now() - startedReal) / PACE_MS);

  /** `count` wrong guesses at once, each from another address: how many were checked, how many refused. */
  async function wave(email: string, count: number) {
    const before = checks.count;
    const outcomes = await Promise.allSettled(Array.from({ length: count }, (_, i) => authenticate(ctx(), { email, password: `guess ${i}` })));
    const refused = outcomes.flatMap((o) => (o.status === "rejected" && o.reason instanceof TooManyAttempts ? [o.reason] : []));
    for (const o of outcomes) if (o.status === "rejected" && !(o.reason instanceof TooManyAttempts)) throw o.reason;
    for (const o of outcomes) if (o.status === "fulfilled") expect(o.value).toEqual({ ok: false });
    return { checked: checks.count - before, refused };
  }

  beforeAll(async () => {
    t = await freshDatabase(engine);
    base = testContext(t);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("checks 5 guesses, then one every 5 seconds, however many addresses send them at once", async () => {
    await registerCustomer(base, { firstName: "Ada", lastName: "Obi", email: "pace@example.com", password: "the owner's own" });
    vi.useFakeTimers({ toFake: ["Date"] });
    now = Date.now();
    at(0);
    startedReal = performance.now();

    // 40 guesses at once from 40 addresses: the 5 free ones and the first turn are checked.
    const first = await wave("pace@example.com", 40);
    expect(first.checked).toBeGreaterThanOrEqual(FREE + 1);
    expect(first.checked).toBeLessThanOrEqual(FREE + 1 + realSlack());
    // The others are answered at once, unchecked, with the seconds until the account's next turn.
    expect(first.refused.length).toBe(40 - first.checked);
    for (const r of first.refused) expect(r.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    for (const r of first.refused) expect(r.retryAfterSeconds).toBeLessThanOrEqual(PACE_MS / 1000);

    // Two seconds later: no turn yet.
    at(2_000);
    const early = await wave("pace@example.com", 20);
    expect(early.checked).toBeLessThanOrEqual(realSlack());
    for (const r of early.refused) expect(r.retryAfterSeconds).toBeLessThanOrEqual(3);

    // Five seconds after the first turn: one more, whatever the number sent.
    at(5_000);
    const next = await wave("pace@example.com", 20);
    expect(next.checked).toBeGreaterThanOrEqual(1);
    expect(next.checked).toBeLessThanOrEqual(1 + realSlack());

    // A minute of quiet does not save up turns.
    at(65_000);
    const later = await wave("pace@example.com", 20);
    expect(later.checked).toBeGreaterThanOrEqual(1);
    expect(later.checked).toBeLessThanOrEqual(1 + realSlack());

    // 100 guesses in 65 seconds from 100 addresses: 8 checked (5 + 3 turns).
    expect(first.checked + early.checked + next.checked + later.checked).toBeLessThanOrEqual(FREE + 3 + realSlack());
  }, 60_000);

  it("never locks the owner out: a password reset lets them sign in while the guessing goes on", async () => {
    await registerCustomer(base, { firstName: "Ada", lastName: "Obi", email: "besieged@example.com", password: "the owner's own" });
    vi.useFakeTimers({ toFake: ["Date"] });
    now = Date.now();
    at(0);
    const ownerIp = freshIp();
    await wave("besieged@example.com", 10);

    // The account's turn is taken by a guesser: the owner's right password waits for the next one.
    const paced = await authenticate(ctx(ownerIp), { email: "besieged@example.com", password: "the owner's own" }).catch((e: unknown) => e);
    expect(paced).toBeInstanceOf(TooManyAttempts);

    // The owner asks for a reset link and sets a new password from their own address...
    await (await requestPasswordReset(ctx(ownerIp), { email: "besieged@example.com", t: translatorFor("en") })).written;
    await drainMailOutbox(t.db, base.config);
    const link = resetLinks((await readOutbox(base.config.dataDir, "besieged@example.com")).at(-1)!.raw)[0];
    const token = new URL(link).searchParams.get("token")!;
    expect(await resetPassword(ctx(ownerIp), { token, password: "a brand new passphrase" })).toEqual({ ok: true });

    // ...the guessers are at it again at once, and are paced...
    at(5_000);
    const after = await wave("besieged@example.com", 20);
    expect(after.refused.length).toBeGreaterThan(0);
    // ...while the owner signs in there at once, without waiting for a turn.
    expect(await authenticate(ctx(ownerIp), { email: "besieged@example.com", password: "a brand new passphrase" })).toMatchObject({ ok: true });
    // Another address still waits for its turn.
    const stranger = await authenticate(ctx(), { email: "besieged@example.com", password: "a brand new passphrase" }).catch((e: unknown) => e);
    expect(stranger).toBeInstanceOf(TooManyAttempts);
  }, 60_000);
});
