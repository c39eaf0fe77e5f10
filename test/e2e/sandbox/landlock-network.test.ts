/**
 * Issue 31: under Landlock (the simulated 24.04 runner) the network is held the way bubblewrap holds
 * it. Listeners outside the sandbox — TCP and UDP on 127.0.0.1 (and ::1 where it is up), a Unix socket
 * in the home, an abstract one — hear nothing from print mode's default or from --yolo; the command a
 * person gave the network (`--yolo --network`) reaches them. In the same modes a Unix socket of the
 * command's own in the project works, and so does POSIX shared memory, in a /dev/shm of its own:
 * the host's /dev/shm is left as it was.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NO_USERNS, simulationHere } from "../../support/no-userns.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";

const bash = (command: string) => ({ name: "bash", arguments: { command } });
const simulated = simulationHere();
const PY = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
const heard = { tcp: 0, udp: 0, udp6: 0, unix: 0, abstract: 0 };
const home = tempDir("ll-net-home");
const paths = { unix: join(home, ".agent.sock"), abstract: `shiro-ll-net-${process.pid}` };
const tcp = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: () => void heard.tcp++, data() {} } });
const unix = Bun.listen({ unix: paths.unix, socket: { open: () => void heard.unix++, data() {} } });
const abstract = Bun.listen({ unix: `\0${paths.abstract}`, socket: { open: () => void heard.abstract++, data() {} } });
const udp = await Bun.udpSocket({ hostname: "127.0.0.1", port: 0, socket: { data: () => void heard.udp++ } });
const udp6 = await Bun.udpSocket({ hostname: "::1", port: 0, socket: { data: () => void heard.udp6++ } }).catch(() => undefined);
afterAll(() => {
  for (const s of [tcp, unix, abstract]) s.stop(true);
  udp.close();
  udp6?.close();
});

const reset = () => Object.keys(heard).forEach((k) => (heard[k as keyof typeof heard] = 0));
const pySend = (family: string, host: string, port: number) => `${PY} -c "import socket; s=socket.socket(socket.${family}, socket.SOCK_DGRAM); s.sendto(b'x', ('${host}', ${port}))"; ${PY} -c "import socket; s=socket.socket(socket.${family}, socket.SOCK_DGRAM); s.connect(('${host}', ${port})); s.send(b'x')"`;
/** Every way out to each listener; each command ends by saying it ran. */
const attacks = () => [
  `exec 3<>/dev/tcp/127.0.0.1/${tcp.port}; echo ran-tcp`,
  `echo x > /dev/udp/127.0.0.1/${udp.port}; ${pySend("AF_INET", "127.0.0.1", udp.port)}; ${udp6 ? pySend("AF_INET6", "::1", udp6.port) : ""}; echo ran-udp`,
  `curl -s -m 3 --unix-socket ~/.agent.sock http://x/; curl -s -m 3 --unix-socket ${paths.unix} http://x/; ${PY} -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${paths.unix}')"; echo ran-unix`,
  `${PY} -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('\\\\0${paths.abstract}')"; echo ran-abstract`,
];
// The honest work beside them: a server and its client on a socket in the project, and a pool of processes sharing memory.
const OWN_SOCKET = `import socket, sys, threading, os
path = sys.argv[1] + '/app.sock'
srv = socket.socket(socket.AF_UNIX); srv.bind(path); srv.listen(1)
threading.Thread(target=lambda: srv.accept()[0].sendall(b'pong'), daemon=True).start()
c = socket.socket(socket.AF_UNIX); c.connect(path); print(c.recv(4).decode()); os.unlink(path)`;
const POOL = `import multiprocessing as mp
if __name__ == '__main__':
    with mp.Pool(2) as p: print(p.map(abs, [-1, -2, -3]))`;

function project() {
  const root = join(tempDir("ll-net"), "proj");
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "own_socket.py"), OWN_SOCKET);
  writeFileSync(join(root, "pool.py"), POOL);
  Bun.spawnSync(["git", "init", "-q"], { cwd: root });
  return root;
}

// Read-only, the command's own socket is in its TMPDIR; approved, in the project.
for (const [mode, args, own] of [["print mode's default (read-only)", [], '"$TMPDIR"'], ["--yolo", ["--yolo"], "."]] as const) {
  test.skipIf(!simulated)(`${mode}: no listener outside hears anything, TCP, UDP, IPv6, a Unix socket in the home or an abstract one; the command's own socket and shared memory work`, async () => {
    const shmBefore = readdirSync("/dev/shm").sort();
    reset();
    const job = await scriptedJob([...attacks(), `${PY} own_socket.py ${own}`, `${PY} pool.py; echo x > /dev/shm/shiro-planted`].map(bash), { cwd: project(), home, args: [...args], wrap: NO_USERNS });
    const out = job.outputs.map((o) => o.output);
    expect(out.slice(0, 4).map((o) => o.match(/ran-\w+/)?.[0])).toEqual(["ran-tcp", "ran-udp", "ran-unix", "ran-abstract"]);
    await Bun.sleep(200); // a datagram in flight
    expect(heard).toEqual({ tcp: 0, udp: 0, udp6: 0, unix: 0, abstract: 0 });
    expect(out[4]).toStartWith("pong\n");
    expect(out[5]).toStartWith("[1, 2, 3]\n");
    expect(out[5]).toContain("It wrote /dev/shm/shiro-planted outside the project");
    expect(readdirSync("/dev/shm").sort()).toEqual(shmBefore);
  });
}

test.skipIf(!simulated)("the control: with the network given (--yolo --network) the same commands reach TCP, UDP and the Unix socket", async () => {
  reset();
  await scriptedJob(attacks().slice(0, 3).map(bash), { cwd: project(), home, args: ["--yolo", "--network"], wrap: NO_USERNS });
  await Bun.sleep(200);
  expect(heard.tcp).toBe(1);
  expect(heard.udp).toBeGreaterThanOrEqual(3);
  expect(heard.unix).toBeGreaterThanOrEqual(2);
});
