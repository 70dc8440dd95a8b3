#!/usr/bin/env python3
"""sigint_report.py — sends SIGINT to PID and waits (10 s at most) for the
run's --output REPORT to appear (written atomically when the run ends, just
before it exits: a sanitizer's leak check at exit comes after it).

    sigint_report.py PID REPORT

Prints two numbers: the signal's time (Unix seconds) and the seconds from it
to the report, or -1 when none came within 10 s.
"""
import os
import signal
import sys
import time

pid, path = int(sys.argv[1]), sys.argv[2]
t = time.time()
os.kill(pid, signal.SIGINT)
while not os.path.exists(path):
    if time.time() - t > 10:
        print("%.3f -1" % t)
        sys.exit(0)
    time.sleep(0.005)
print("%.3f %.3f" % (t, time.time() - t))
