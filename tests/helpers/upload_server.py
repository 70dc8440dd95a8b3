#!/usr/bin/env python3
"""upload_server.py — a local collector for the upload smoke tests.

Listens on 127.0.0.1 only, on a free port it writes to OUT/port. Every POST
is counted in OUT/count; the last body goes to OUT/body and its headers to
OUT/headers. --tls CERT KEY serves https.

Modes:
  ok            200 "stored ok" (two lines, only the first is to be shown)
  500           500 "internal error: try later"
  hang          reads the request, never answers
  redirect-http 307 to http://127.0.0.1:<--to-port>/x
  redirect-ok   308 from any path but /final to https://127.0.0.1:<port>/final
  redirect-host 308 to https://localhost:<port>/final (another origin)
"""
import argparse
import http.server
import os
import ssl
import threading
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="ok")
    ap.add_argument("--out", required=True)
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    ap.add_argument("--to-port", type=int, default=1)
    a = ap.parse_args()
    lock = threading.Lock()

    def note(body, headers):
        with lock:
            cp = os.path.join(a.out, "count")
            n = int(open(cp).read()) if os.path.exists(cp) else 0
            with open(cp + ".tmp", "w") as f:
                f.write(str(n + 1))
            os.replace(cp + ".tmp", cp)
            with open(os.path.join(a.out, "body"), "wb") as f:
                f.write(body)
            with open(os.path.join(a.out, "headers"), "w") as f:
                f.write(headers)

    class H(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def reply(self, code, text, location=None):
            data = text.encode()
            self.send_response(code)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(data)))
            if location:
                self.send_header("Location", location)
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            n = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(n)
            note(body, str(self.headers))
            port = self.server.server_address[1]
            m = a.mode
            if m == "ok":
                self.reply(200, "stored ok\nsecond line\n")
            elif m == "500":
                self.reply(500, "internal error: try later\n")
            elif m == "hang":
                time.sleep(60)
            elif m == "redirect-http":
                self.reply(307, "moved\n", "http://127.0.0.1:%d/x" % a.to_port)
            elif m == "redirect-ok":
                if self.path == "/final":
                    self.reply(200, "stored after redirect\n")
                else:
                    self.reply(308, "moved\n", "https://127.0.0.1:%d/final" % port)
            elif m == "redirect-host":
                self.reply(308, "moved\n", "https://localhost:%d/final" % port)
            else:
                self.reply(400, "unknown mode\n")

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    srv.daemon_threads = True
    if a.tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(a.tls[0], a.tls[1])
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    port = srv.server_address[1]
    with open(os.path.join(a.out, "port.tmp"), "w") as f:
        f.write(str(port))
    os.replace(os.path.join(a.out, "port.tmp"), os.path.join(a.out, "port"))
    srv.serve_forever()


if __name__ == "__main__":
    main()
