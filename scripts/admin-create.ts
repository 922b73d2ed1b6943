// npm run admin:create [-- --email a@b.ng --password '...' --first-name Ada --last-name Obi]
// Creates an owner (every permission, docs/decisions/218), or makes an existing account one. Asks at a prompt for what is not given.
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { z } from "zod";
import { openDatabase } from "../app/db/client.server";
import { migrateToLatest } from "../app/db/migrate.server";
import { createOrPromoteAdmin, MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../app/domain/accounts/accounts.server";
import { passwordWeakness } from "../app/domain/accounts/password-strength.server";
import enAuth from "../app/locales/en/auth.json";
import { loadConfig } from "../app/platform/config.server";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    password: { type: "string" },
    "first-name": { type: "string" },
    "last-name": { type: "string" },
  },
});

const emailSchema = z
  .string()
  .trim()
  .max(MAX_EMAIL_LENGTH, "That is not a valid e-mail address.")
  .pipe(z.email({ message: "That is not a valid e-mail address." }));
const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `The password needs at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(MAX_PASSWORD_LENGTH, `The password can have at most ${MAX_PASSWORD_LENGTH} characters.`)
  // The same rule as the shop's forms (docs/decisions/082), said in English.
  .superRefine((password, ctx) => {
    const reason = passwordWeakness(password);
    const key = reason?.replace("auth.errors.", "") as keyof typeof enAuth.errors | undefined;
    if (key) ctx.addIssue({ code: "custom", message: enAuth.errors[key] });
  });

/**
 * Questions at a prompt. One reader for all of them, so answers piped in (one a line) are not lost
 * between questions; at a terminal the password is not echoed.
 */
function prompter() {
  const tty = Boolean(process.stdin.isTTY);
  let muted = false;
  // What the terminal echoes goes through here, and is dropped while a password is typed.
  const echo = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output: echo, terminal: tty });
  const pending: string[] = [];
  let waiting: ((line: string | null) => void) | null = null;
  let closed = false;
  rl.on("line", (line) => {
    if (waiting) {
      const resolve = waiting;
      waiting = null;
      resolve(line);
    } else pending.push(line);
  });
  rl.on("close", () => {
    closed = true;
    waiting?.(null);
    waiting = null;
  });
  return {
    async ask(question: string, hidden = false): Promise<string> {
      process.stdout.write(question);
      muted = hidden;
      const answer = pending.length ? pending.shift()! : closed ? null : await new Promise<string | null>((resolve) => (waiting = resolve));
      muted = false;
      if (hidden || !tty) process.stdout.write("\n");
      if (answer === null) throw new Error(`No answer to "${question.trim()}": nothing was created.`);
      return answer;
    },
    close: () => rl.close(),
  };
}

async function main() {
  const prompt = values.email === undefined || values.password === undefined ? prompter() : null;
  let email: string;
  let password: string;
  try {
    email = emailSchema.parse(values.email ?? (await prompt!.ask("E-mail: ")));
    password = passwordSchema.parse(values.password ?? (await prompt!.ask("Password: ", true)));
  } finally {
    prompt?.close();
  }
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await migrateToLatest(database.db);
    const result = await createOrPromoteAdmin(database.db, {
      email,
      password,
      firstName: values["first-name"],
      lastName: values["last-name"],
    });
    console.log(
      result.created ? `Owner ${email} created.` : `${email} is now an owner (password updated; its sessions were ended).`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof z.ZodError ? error.issues[0].message : (error as Error).message);
  process.exit(1);
});
