#!/usr/bin/env python3
"""silent_dns.py — a resolver that never answers: a UDP (and TCP) socket on
HOST:PORT that reads DNS queries and logs each one's name, for a lookup
that must end on the client's own deadline.

    silent_dns.py HOST PORT LOG

LOG gets one line per query: the name asked for (from the question section).
Run it only where nothing can leave the machine (a network namespace with
only lo): it sends nothing at all.
"""
import socket
import sys
import threading


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
    while True:
        pkt, _ = u.recvfrom(4096)
        log(path, pkt)


if __name__ == "__main__":
    main()
