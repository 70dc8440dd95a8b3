# fake_iperf3.sh — sourced by the smoke scripts that run tests/helpers/fake_iperf3.py
# on 127.0.0.1: a free port, a fake server per case, and the wait for its listener.
# Needs T (the script's temporary directory) and PIDS (the servers to kill on exit).

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# fake NAME SCRIPTS: a server for this case; its port in $T/NAME.port, its log $T/NAME.log
fake() {
	local port
	port=$(free_port)
	python3 tests/helpers/fake_iperf3.py 127.0.0.1 "$port" "$2" "$T/$1.log" 2>"$T/$1.srv.err" &
	PIDS="$PIDS $!"
	echo "$port" > "$T/$1.port"
}
# wait_fake NAME: until its server listens (ss, not a connect: the server
# would take a probe for a client)
wait_fake() {
	local port
	port=$(cat "$T/$1.port")
	for _ in $(seq 100); do
		ss -Hltn "sport = :$port" | grep -q . && break
		sleep 0.1
	done
}
