// npm run admin:create [-- --email a@b.ng --password '...' --first-name Ada --last-name Obi]
// Creates an admin, or promotes an existing account. Asks at a prompt for what is not given.
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { z } from "zod";
import { openDatabase } from "../app/db/client.server";
import { migrateToLatest } from "../app/db/migrate.server";
import { createOrPromoteAdmin, MIN_PASSWORD_LENGTH } from "../app/domain/accounts.server";
import { loadConfig } from "../app/lib/config.server";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    password: { type: "string" },
    "first-name": { type: "string" },
    "last-name": { type: "string" },
  },
});

const emailSchema = z.email({ message: "That is not a valid e-mail address." });
const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `The password needs at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(256, "The password can have at most 256 characters.");

async function ask(question: string, hidden = false): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  if (hidden) {
    // Echo nothing while the password is typed.
    const write = (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput;
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) =>
      write.call(rl, s.startsWith(question) ? s : "");
  }
  const answer = await rl.question(question);
  rl.close();
  if (hidden) process.stdout.write("\n");
  return answer;
}

async function main() {
  const email = emailSchema.parse((values.email ?? (await ask("E-mail: "))).trim());
  const password = passwordSchema.parse(values.password ?? (await ask("Password: ", true)));
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
    console.log(result.created ? `Admin ${email} created.` : `${email} is now an admin (password updated).`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof z.ZodError ? error.issues[0].message : (error as Error).message);
  process.exit(1);
});
