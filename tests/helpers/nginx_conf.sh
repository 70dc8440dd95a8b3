#!/bin/bash
# nginx_conf.sh DIR ADDR:PORT — writes DIR/nginx.conf for Debian's nginx
# (nginx-light) serving DIR/www on ADDR:PORT in the foreground, with every
# path (pid, logs, temp dirs) under DIR/ngx, and makes DIR readable to
# nginx's www-data workers (mktemp dirs are 0700). Start it with
# `nginx -c DIR/nginx.conf -p DIR/ngx`. Used by tests/helpers/net_ns.sh and
# tests/compare/vs-iperf3.sh.
set -eu
d=$1 listen=$2
mkdir -p "$d/www" "$d/ngx"
chmod a+rx "$d" "$d/www"
cat > "$d/nginx.conf" <<NGX
daemon off; worker_processes 1; pid $d/ngx/pid; error_log $d/ngx/err.log;
events { worker_connections 64; }
http {
	access_log off; sendfile on; default_type application/octet-stream;
	client_body_temp_path $d/ngx/b; proxy_temp_path $d/ngx/p; fastcgi_temp_path $d/ngx/f;
	uwsgi_temp_path $d/ngx/u; scgi_temp_path $d/ngx/s;
	server { listen $listen; root $d/www; }
}
NGX
