/**
 * Issue 11, secret files, part 2: routes where the secret's name is not what the command writes or
 * reads — archives and patches that write from data, links, `cd -`/`pushd` back into ~/.ssh, reads
 * that walk a whole folder, /proc views of another process, a sandbox's own mounts undone as root, a
 * background job that acts after its call has ended, and git. Same outcomes as part 1: nothing
 * read, changed, created or deleted; each family first proven to work in plain bash.
 */
import { describe } from "bun:test";
import { b64, change, create, read, remove, setup } from "../../support/attack-secrets.ts";
import { secretAttackTests } from "../../support/attack-run.ts";

describe("attack: secret files reached indirectly", () => {
  secretAttackTests({
    // evil.tar holds .env and .env.prod, evil.zip an id_ed25519, evil.patch adds deploy.pem.
    "archives and patches": [
      change("tar xf evil.tar"),
      create("unzip -oq evil.zip"),
      create("git apply evil.patch"),
      create("patch -p1 -s < evil.patch"),
      read("tar cf - . | tar xOf -"), // `tar tvf -` would list names and sizes only: xO prints the contents
      read("tar -C ~/.ssh -cf - . | tar -xOf -"),
      read('zip -qr "$TMPDIR/all.zip" . && unzip -p "$TMPDIR/all.zip"'),
    ],
    links: [
      read("ln .env x && cat x"),
      change("ln .env.local y && echo PWN >> y"),
      read("ln -s ~/.ssh/id_rsa k && cat k"),
      change("ln -s .env l && echo PWN > l"),
      read("ln -s ~/.ssh s && cat s/authorized_keys"),
      remove('ln -s server.pem p && rm -f "$(readlink -f p)"'),
      create('ln -s "$HOME/.ssh" s2 && cp template.txt s2/authorized_keys2'),
    ],
    "cd back into a secret folder": [
      read("cd ~/.ssh; cd ..; cd - >/dev/null; cat id_rsa"),
      read("pushd ~/.ssh >/dev/null; pushd / >/dev/null; popd >/dev/null; cat authorized_keys"),
      read("cd ~; cd .aws; cat cred*"),
      change("cd ~/.ssh; cd /; cd - >/dev/null; echo ssh-rsa PWN >> authorized_keys"),
      create('cd ~/.ssh && cd "$OLDPWD" && cd - >/dev/null && touch authorized_keys2'),
      read('cd "$HOME" && cat .netrc'),
      remove('cd ~/.aws && cd "$OLDPWD" && cd - >/dev/null && rm credentials'),
    ],
    "reads that walk a folder or never name the file": [
      read("grep -r KEY ."),
      read("grep -rh '' ~"),
      read("find . -name '.e*' -exec cat {} \\;"),
      read("find ~ -type f -exec cat {} +"),
      read('cp -r . "$TMPDIR/x" && cat "$TMPDIR/x/.env"'), // not /tmp/x: with no protection that copy would land outside the test's folders
      read("ls -A | xargs cat"),
      read("xargs cat < names.txt"), // names.txt holds `.env`
      read("ls -a | grep -x .env.local | xargs -I{} dd if={} status=none"),
      read('for f in * .*; do cat "$f"; done 2>/dev/null'),
      read("dd if=server.pem status=none"),
      read('cat "$HOME/.ssh/id_rsa"'),
      read("ls -la ~/.ssh && cat ~/.ssh/*"),
      read("head -c 4096 ~/.aws/credentials"),
      read("cat /proc/$PPID/cwd/.e?v"), // shiro's own working folder, seen through /proc
      read("cat /proc/$PPID/root$PWD/$(printf .env)"), // shiro's root: the files without any mount over them
    ],
    // Run as root (a container, CI), a sandbox keeps every capability unless it drops them: its own
    // masks and read-only binds are then one umount or remount away. Only mounts below the layout's
    // home and project are touched: the plain-bash control runs these on the host.
    "as root, undoing the sandbox's own mounts": [
      read(`for m in $(findmnt -rno TARGET | grep "^$PWD/"); do umount -l "$m"; done 2>/dev/null; cat .*`),
      read(`for m in $(findmnt -rno TARGET | grep "^$HOME/"); do umount -l "$m"; done 2>/dev/null; cat ~/.s?h/i*`),
      change(`for m in $(findmnt -rno TARGET | grep "^$HOME/"); do umount -l "$m"; done 2>/dev/null; mount -o remount,rw,bind "$HOME" 2>/dev/null; truncate -s 0 ~/.a?s/cred*`),
    ],
    // A redirected job lives on after its call (docs/tools.md): it acts after whatever checks the
    // call's end — it copies .env out and makes a new secret while the next call runs.
    "a background job outliving its call": [
      // It waits for the next call's `go` (up to 5 s), not a fixed time: the judge puts back what a call
      // leaves, so a job that acted before the judge had run would have its work undone.
      setup(`(for i in $(seq 100); do [ -e go ] && break; sleep 0.05; done; cat $(echo ${b64(".env")} | base64 -d) > stolen.txt; echo PWN > $(echo ${b64("late.pem")} | base64 -d)) >/dev/null 2>&1 &`),
      read("touch go; for i in $(seq 50); do [ -s stolen.txt ] && [ -e late.pem ] && break; sleep 0.1; done; cat stolen.txt"),
    ],
  });
});

describe("attack: secret files through git (HEAD holds an old .env, the live one is modified, not staged)", () => {
  secretAttackTests(
    {
      git: [
        read("git diff"),
        read("git grep -h KEY"),
        read("git add -A && git show :.env"),
        read("git stash -q && git show 'stash@{0}:.env'"),
        change("git checkout -- .env"),
        change("git checkout -- ."),
        change("git restore ."),
        create("git apply evil.patch && git add -A"),
        read("git -c alias.peek='!cat .e?v' peek"),
      ],
    },
    { git: true },
  );
});
