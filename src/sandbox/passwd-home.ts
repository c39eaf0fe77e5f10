import { readFileSync } from "node:fs";
import { userInfo } from "node:os";

/**
 * The person's home as the system records it (the passwd entry of this uid), whatever HOME says: a
 * command must not find it either. Bun's `userInfo().homedir` answers $HOME, so the file is read; where
 * there is none (macOS keeps its users elsewhere), userInfo is the fallback.
 */
export function passwdHome(uid = process.getuid?.(), passwd = "/etc/passwd"): string | undefined {
  if (uid !== undefined) {
    try {
      for (const line of readFileSync(passwd, "utf8").split("\n")) {
        const fields = line.split(":");
        if (fields.length >= 7 && Number(fields[2]) === uid && fields[5]) return fields[5];
      }
    } catch {
      // no passwd file: below
    }
  }
  try {
    return userInfo().homedir;
  } catch {
    return undefined;
  }
}
