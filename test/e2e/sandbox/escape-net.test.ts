/**
 * Issue 18: the network is a person's to give. Listeners the test holds — TCP on 127.0.0.1, a Unix
 * socket in the sibling project, one in the home, an abstract one — hear nothing from a --yolo
 * command (curl, bash's /dev/tcp, python's socket); a command a person approved (`--allow
 * 'bash:curl*'`) or any command under `--network` reaches the TCP one (the controls); `--no-network`
 * wins over an approval. Judged by what the listeners heard, never by what shiro said.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { bwrapAbsent, escapeLayout, escapeRun, leaks, type EscapeLayout } from "../../support/escape-layout.ts";

type Ear = { heard: number; stop(): void };

/** A listener that counts connections, answering each with a tiny HTTP response. */
function listen(opts: { hostname: string; port: number } | { unix: string }): Ear & { port?: number } {
  const ear = { heard: 0 };
  const server = Bun.listen({
    ...(opts as any),
    socket: {
      open() {
        ear.heard++;
      },
      data(socket: { write(s: string): void; end(): void }) {
        socket.write("HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\nheard\n");
        socket.end();
      },
    },
  } as any);
  return Object.assign(ear, { port: (server as any).port as number | undefined, stop: () => server.stop(true) });
}

type Ears = { tcp: Ear & { port?: number }; sib: Ear; home: Ear; abstract: Ear; paths: { sib: string; home: string; abstract: string } };

const opened: Ear[] = [];
afterAll(() => opened.forEach((e) => e.stop()));

function ears(l: EscapeLayout): Ears {
  const paths = { sib: join(l.sibling, "agent.sock"), home: join(l.home, ".agent.sock"), abstract: `shiro-escape-${l.base.split("-").at(-1)}` };
  const e: Ears = { tcp: listen({ hostname: "127.0.0.1", port: 0 }), sib: listen({ unix: paths.sib }), home: listen({ unix: paths.home }), abstract: listen({ unix: `\0${paths.abstract}` }), paths };
  opened.push(e.tcp, e.sib, e.home, e.abstract);
  return e;
}

const heard = (e: Ears) => ({ tcp: e.tcp.heard, sib: e.sib.heard, home: e.home.heard, abstract: e.abstract.heard });

const py = (connect: string) => `python3 -c "import socket; ${connect}; s.send(b'GET / HTTP/1.0\\r\\n\\r\\n'); print(s.recv(99))"`;

/** Every way a command would reach each listener; each ends saying it ran. */
function attacks(e: Ears): string[] {
  const port = e.tcp.port;
  return [
    `curl -s -m 3 http://127.0.0.1:${port}/; echo ran-curl`,
    `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}; echo hi >&3; cat <&3'; echo ran-devtcp`,
    `${py(`s=socket.create_connection(('127.0.0.1', ${port}), 3)`)}; echo ran-python`,
    `curl -s -m 3 --unix-socket ${e.paths.sib} http://x/; curl -s -m 3 --unix-socket ~/.agent.sock http://x/; curl -s -m 3 --unix-socket ${e.paths.home} http://x/; echo ran-curl-unix`,
    `${py(`s=socket.socket(socket.AF_UNIX); s.connect('${e.paths.sib}')`)}; ${py(`s=socket.socket(socket.AF_UNIX); s.connect('${e.paths.home}')`)}; echo ran-python-unix`,
    `${py(`s=socket.socket(socket.AF_UNIX); s.connect('\\\\0${e.paths.abstract}')`)}; echo ran-python-abstract`,
  ];
}

const ranTags = (outputs: string[]) => outputs.map((o) => o.match(/ran-[\w-]+/)?.[0] ?? "(did not run)");

describe.skipIf(bwrapAbsent)("the network is a person's to give (needs /usr/bin/bwrap)", () => {
  test.concurrent("control: with no sandbox, each attack reaches its listener", async () => {
    const l = escapeLayout("escape-net-control");
    const e = ears(l);
    // Async: the listeners live on this event loop, which a synchronous spawn would block.
    for (const command of attacks(e)) await Bun.spawn(["bash", "-c", command], { cwd: l.root, env: { PATH: process.env.PATH!, HOME: l.home }, stdout: "ignore", stderr: "ignore", timeout: 10_000 }).exited;
    const h = heard(e);
    expect({ tcp: h.tcp >= 3, sib: h.sib >= 2, home: h.home >= 3, abstract: h.abstract >= 1 }).toEqual({ tcp: true, sib: true, home: true, abstract: true });
  }, 25_000);

  test.concurrent("--yolo: no listener hears anything; the project is still read", async () => {
    const l = escapeLayout("escape-net-yolo");
    const e = ears(l);
    const run = await escapeRun(l, ["cat README", ...attacks(e)], { args: ["--yolo"] });
    expect(run.outputs[0]).toContain(l.readme.trim());
    expect(ranTags(run.outputs.slice(1))).toEqual(["ran-curl", "ran-devtcp", "ran-python", "ran-curl-unix", "ran-python-unix", "ran-python-abstract"]);
    expect(heard(e)).toEqual({ tcp: 0, sib: 0, home: 0, abstract: 0 });
    expect(run.outputs.join("\n")).not.toContain("heard");
    expect(leaks(l, run)).toEqual([]);
  }, 25_000);

  test.concurrent("--allow 'bash:curl*' (a person approved it): curl reaches the TCP listener", async () => {
    const l = escapeLayout("escape-net-allow");
    const e = ears(l);
    const run = await escapeRun(l, [`curl -s -m 3 http://127.0.0.1:${e.tcp.port}/`], { args: ["--allow", "bash:curl*"] });
    expect(e.tcp.heard).toBeGreaterThanOrEqual(1);
    expect(run.outputs[0]).toContain("heard");
  }, 25_000);

  test.concurrent("--network: a command nobody approved reaches the TCP listener", async () => {
    const l = escapeLayout("escape-net-on");
    const e = ears(l);
    const run = await escapeRun(l, [attacks(e)[1]!], { args: ["--yolo", "--network"] });
    expect(e.tcp.heard).toBeGreaterThanOrEqual(1);
    expect(run.outputs[0]).toContain("heard");
  }, 25_000);

  test.concurrent("--no-network with --allow 'bash:curl*': the approved curl hears nothing back", async () => {
    const l = escapeLayout("escape-net-off");
    const e = ears(l);
    const run = await escapeRun(l, [`curl -s -m 3 http://127.0.0.1:${e.tcp.port}/; echo ran-curl`, `curl -s -m 3 --unix-socket ${e.paths.home} http://x/; echo ran-curl-unix`], {
      args: ["--no-network", "--allow", "bash:curl*"],
    });
    expect(ranTags(run.outputs)).toEqual(["ran-curl", "ran-curl-unix"]);
    expect(heard(e)).toEqual({ tcp: 0, sib: 0, home: 0, abstract: 0 });
  }, 25_000);
});
