import type { AppLoadContext } from "react-router";
import type { Db } from "~/db/client.server";
import { CHALLENGE_TTL_MS, endChallenge, openChallengeOfToken, startChallengeToken } from "~/domain/accounts/second-factor.server";
import { readCookie, serializeCookie } from "./cookies.server";

/** The cookie that carries a sign-in's second-factor challenge between the password and the code (docs/decisions/222). */
export const CHALLENGE_COOKIE = "ub_second_factor";

function challengeCookie(token: string, context: Pick<AppLoadContext, "config">, maxAgeSeconds: number): string {
  return serializeCookie(CHALLENGE_COOKIE, token, { httpOnly: true, secure: context.config.publicUrl.startsWith("https://"), maxAgeSeconds });
}

/** Starts a challenge for the account and answers the cookie that carries it. */
export async function startChallenge(context: Pick<AppLoadContext, "db" | "config">, userId: number, redirectTo: string | null | undefined): Promise<string> {
  return challengeCookie(await startChallengeToken(context.db, userId, redirectTo), context, CHALLENGE_TTL_MS / 1000);
}

/** The challenge this browser holds, still open, or null. */
export function openChallenge(request: Request, db: Db): Promise<{ tokenHash: string; userId: number; redirectTo: string } | null> {
  return openChallengeOfToken(db, readCookie(request, CHALLENGE_COOKIE));
}

/** Ends the challenge (answered, or given up): one use. Answers whether it was still there, and the cookie that clears it. */
export async function closeChallenge(context: Pick<AppLoadContext, "db" | "config">, tokenHash: string): Promise<{ closed: boolean; cookie: string }> {
  return { closed: await endChallenge(context.db, tokenHash), cookie: challengeCookie("", context, 0) };
}
