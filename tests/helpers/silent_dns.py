#!/usr/bin/env python3
"""silent_dns.py — a resolver that never answers: a UDP (and TCP) socket on
HOST:PORT that reads DNS queries and logs each one's name, for a lookup
that must end on the client's own deadline.

    silent_dns.py HOST PORT LOG [LATE_S]

LOG gets one line per query: the name asked for (from the question section).
With LATE_S, a UDP query for a name whose first label starts with "late" is
answered NXDOMAIN after LATE_S seconds (a lookup that ends after the client
gave up on it), logged as "answered NAME UNIX_TIME". Run it only where
nothing can leave the machine (a network namespace with only lo): it sends
nothing but those late answers, to the asking socket.
"""
import socket
import struct
import sys
import threading
import time


def qname(pkt):
    """The first question's name of a DNS message, or '?'."""
    labels, i = [], 12
    try:
        while pkt[i]:
            n = pkt[i]
            labels.append(pkt[i + 1:i + 1 + n].decode("ascii", "replace"))
            i += 1 + n
    except IndexError:
        return "?"
    return ".".join(labels)


def nxdomain(pkt):
    """The NXDOMAIN answer to query pkt: its id, opcode and RD; its question only."""
    i = 12
    while pkt[i]:
        i += 1 + pkt[i]
    q = pkt[12:i + 5]
    return pkt[:2] + bytes([0x80 | (pkt[2] & 0x79), 0x83]) + struct.pack("!HHHH", 1, 0, 0, 0) + q


def answer_late(u, pkt, peer, delay, path):
    time.sleep(delay)
    u.sendto(nxdomain(pkt), peer)
    with open(path, "a") as f:
        f.write("answered %s %.3f\n" % (qname(pkt), time.time()))


def log(path, pkt):
    with open(path, "a") as f:
        f.write(qname(pkt) + "\n")


def tcp(lst, path):
    """Accepts and reads (a resolver falls back to TCP): never replies."""
    held = []
    while True:
        c, _ = lst.accept()
        held.append(c)
        try:
            log(path, c.recv(4096)[2:])
        except OSError:
            pass


def main():
    host, port, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.bind((host, port))
    t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    t.bind((host, port))
    t.listen(16)
    threading.Thread(target=tcp, args=(t, path), daemon=True).start()
    open(path, "a").close()
    late = float(sys.argv[4]) if len(sys.argv) > 4 else None
    while True:
        pkt, peer = u.recvfrom(4096)
        log(path, pkt)
        if late is not None and qname(pkt).startswith("late"):
            threading.Thread(target=answer_late, args=(u, pkt, peer, late, path), daemon=True).start()


if __name__ == "__main__":
    main()
