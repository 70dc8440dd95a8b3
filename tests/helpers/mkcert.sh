#!/bin/sh
# mkcert.sh DIR — a throw-away CA and a server certificate for 127.0.0.1
# (IP SAN, plus DNS:localhost for TLS stacks without IP SAN checks), made
# at test time in DIR (a mktemp -d); keys never enter the repo.
# Writes DIR/ca.crt, DIR/srv.crt, DIR/srv.key.
set -eu
d=$1
cd "$d"
ec="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
openssl req -x509 $ec -keyout ca.key -out ca.crt -days 2 -subj "/CN=vpsbench test CA" \
	-addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
	2>/dev/null
openssl req $ec -keyout srv.key -out srv.csr -subj "/CN=127.0.0.1" 2>/dev/null
printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost" "basicConstraints=CA:FALSE" \
	"keyUsage=digitalSignature" "extendedKeyUsage=serverAuth" > srv.ext
openssl x509 -req -in srv.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out srv.crt -days 2 \
	-extfile srv.ext 2>/dev/null
rm -f srv.csr srv.ext ca.srl
