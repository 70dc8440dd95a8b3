#!/usr/bin/env python3
"""fake_iperf3.py — a scripted iperf3 server (TCP, one test at a time) for
what the real `iperf3 -s` does not do on demand.

    fake_iperf3.py HOST PORT SCRIPT[,SCRIPT...] LOG

Each control connection takes the next SCRIPT of the list (the last one
repeats). Written from the wire-protocol facts in
/work/shared/reference/iperf3-protocol.md: 37-byte cookie, one-byte states,
32-bit big-endian JSON lengths, stream ids 1, 3, 4, ...

  ok       a whole test, honest counts (normal and -R)
  v312     a whole test as a 3.12 server answers: -1 as 2^64-1 in
           sender_has_retransmits and every retransmits
  busy     ACCESS_DENIED (-1), then close
  err1     after the parameters: SERVER_ERROR and ONE int (142, 3.0-3.18 auth)
  err2     after the parameters: SERVER_ERROR, code 5 and errno 22
  bytes64  a whole test, results with bytes 2^64-1
  ids12    a whole test, results with ids 1, 2, ... (not this test's)
  eofjson  after the client's results: a length of 1000 and 10 bytes, then close
  stall    TEST_START and TEST_RUNNING, then nothing (reads nothing, sends nothing)
  bigjson  after the client's results: a length prefix of 10 MB, then nothing
  dur1e-9  a whole test, honest bytes, every stream's end_time 1e-9 s (a lying duration)
  dur80000 a whole test, honest bytes, every stream's end_time 80000 s
  dur0.55  a whole test, honest bytes, end_time 0.55 x this server's own seconds
           (inside the accepted window, but faster than the client sent)
  closemid 1 s into the run: the data streams and the control connection closed
  badbyte  after the parameters: the state byte 99 (no such state)

LOG gets one JSON line per control connection: the script, the parameters,
the bytes this server counted per stream, the client's state byte that
ended the run ("state": 4 TEST_END, 12 CLIENT_TERMINATE) and how it ended.
"""
import json
import socket
import struct
import sys
import threading
import time

TEST_START, TEST_RUNNING, TEST_END = 1, 2, 4
PARAM_EXCHANGE, CREATE_STREAMS = 9, 10
CLIENT_TERMINATE, EXCHANGE_RESULTS, DISPLAY_RESULTS, IPERF_DONE = 12, 13, 14, 16
ACCESS_DENIED, SERVER_ERROR = -1, -2
U64_MAX = 18446744073709551615


def recv_exact(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise EOFError("peer closed after %d of %d bytes" % (len(b), n))
        b += c
    return b


def state(s, v):
    s.sendall(struct.pack("b", v))


def read_state(s):
    return struct.unpack("b", recv_exact(s, 1))[0]


def send_json(s, obj):
    t = json.dumps(obj, separators=(",", ":")).encode()
    s.sendall(struct.pack("!I", len(t)) + t)


def recv_json(s):
    n = struct.unpack("!I", recv_exact(s, 4))[0]
    return json.loads(recv_exact(s, n))


def stream_id(i):
    return 1 if i == 0 else i + 2


class Test:
    def __init__(self, lst, script, log):
        self.lst, self.script, self.log = lst, script, log
        self.counts = []
        self.running = False
        self.entry = {"script": script}

    def pump(self, i, sock, reverse):
        """Counts bytes read (normal) or written (-R) while running."""
        buf = b"\x5a" * 131072
        try:
            while self.running:
                if reverse:
                    n = sock.send(buf)
                    # a sender paced to ~1 Gbit/s a stream: the counts are
                    # what they are; the CPU is left to the other cases
                    time.sleep(0.001)
                else:
                    n = len(sock.recv(131072))
                    if n == 0:
                        break
                    # a slow receiver: data is still in flight at TEST_END, so the
                    # receiver's count is below the sender's, as on a real path
                    time.sleep(0.001)
                # every byte sent counts: the client got it (a send in flight at TEST_END too)
                if self.running or reverse:
                    self.counts[i] += n
        except OSError:
            pass

    def run(self, ctl):
        sc = self.script
        ctl.settimeout(30)
        cookie = recv_exact(ctl, 37)
        if sc == "busy":
            state(ctl, ACCESS_DENIED)
            return "denied"
        state(ctl, PARAM_EXCHANGE)
        params = recv_json(ctl)
        self.entry["params"] = params
        if sc == "err1":
            state(ctl, SERVER_ERROR)
            ctl.sendall(struct.pack("!i", 142))
            return "error, one int"
        if sc == "err2":
            state(ctl, SERVER_ERROR)
            ctl.sendall(struct.pack("!ii", 5, 22))
            return "error, two ints"
        if sc == "badbyte":
            state(ctl, 99)
            return "state 99 sent"
        n = int(params["parallel"])
        reverse = "reverse" in params
        state(ctl, CREATE_STREAMS)
        streams = []
        self.lst.settimeout(10)
        while len(streams) < n:
            s, _ = self.lst.accept()
            s.settimeout(10)
            if recv_exact(s, 37) != cookie:
                state(s, ACCESS_DENIED)
                s.close()
                continue
            streams.append(s)
        self.counts = [0] * n
        state(ctl, TEST_START)
        t0 = time.monotonic()
        self.running = True
        state(ctl, TEST_RUNNING)
        if sc == "stall":
            time.sleep(40)  # the client gives up first; the test's deadline ends this
            self.running = False
            return "stalled"
        th = [threading.Thread(target=self.pump, args=(i, s, reverse), daemon=True)
              for i, s in enumerate(streams)]
        for t in th:
            t.start()
        if sc == "closemid":
            time.sleep(1)
            self.running = False
            for s in streams:
                s.close()
            return "closed mid-run"
        st = read_state(ctl)
        self.running = False
        secs = time.monotonic() - t0
        self.entry["state"] = st  # the client's first state byte of the run (12: CLIENT_TERMINATE)
        if st == CLIENT_TERMINATE:
            return "client terminated"
        if st != TEST_END:
            return "unexpected state %d" % st
        if reverse:  # the sends in flight end (the client drains them) before the count is read
            for t in th:
                t.join(5)
        for s in streams:
            s.close()
        state(ctl, EXCHANGE_RESULTS)
        client = recv_json(ctl)
        self.entry["client_results"] = client
        self.entry["bytes"] = self.counts
        self.entry["seconds"] = secs
        if sc == "eofjson":
            ctl.sendall(struct.pack("!I", 1000) + b'{"cpu_util')
            return "eof in json"
        if sc == "bigjson":
            ctl.sendall(struct.pack("!I", 10 * 1000 * 1000))
            time.sleep(3)
            return "big json"
        rtx = U64_MAX if sc == "v312" or not reverse else 0
        res = {
            "cpu_util_total": 1.0, "cpu_util_user": 0.5, "cpu_util_system": 0.5,
            "sender_has_retransmits": (U64_MAX if sc == "v312" else 1) if reverse else U64_MAX,
            "congestion_used": "cubic",
            "streams": [{"id": (i + 1 if sc == "ids12" else stream_id(i)),
                         "bytes": U64_MAX if sc == "bytes64" else self.counts[i],
                         "retransmits": rtx, "jitter": 0, "errors": 0, "packets": 0,
                         "start_time": 0,
                         "end_time": {"dur1e-9": 1e-9, "dur80000": 80000.0,
                                      "dur0.55": 0.55 * secs}.get(sc, secs)}
                        for i in range(n)],
        }
        send_json(ctl, res)
        state(ctl, DISPLAY_RESULTS)
        try:
            done = read_state(ctl)
        except (EOFError, OSError):
            return "no IPERF_DONE"
        return "done" if done == IPERF_DONE else "state %d" % done


def main():
    host, port, scripts, logpath = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4]
    fam = socket.AF_INET6 if ":" in host else socket.AF_INET
    lst = socket.socket(fam, socket.SOCK_STREAM)
    lst.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lst.bind((host, port))
    lst.listen(16)
    k = 0
    while True:
        lst.settimeout(None)
        ctl, _ = lst.accept()
        t = Test(lst, scripts[min(k, len(scripts) - 1)], logpath)
        k += 1
        try:
            t.entry["end"] = t.run(ctl)
        except (EOFError, OSError, ValueError) as e:
            t.entry["end"] = "error: %s" % e
        finally:
            t.running = False
            ctl.close()
        with open(logpath, "a") as f:
            f.write(json.dumps(t.entry) + "\n")


if __name__ == "__main__":
    main()
