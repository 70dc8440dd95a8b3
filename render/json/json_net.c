/*
 * json_net.c — the "net" section: one object per server and family, each
 * direction with iperf3's own figures (receiver bits/s, sender
 * retransmits) and its status; unknown is null, busy is never 0.
 */
#include "render/render.h"

#ifdef HAVE_CJSON
#include "json_put.h"

static cJSON *dir_obj(const struct net_dir *d)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON *tl;

	cJSON_AddStringToObject(o, "status", net_status_name(d->status));
	json_add_mdbl(o, "bits_per_second", d->bps);
	json_add_mdbl(o, "mbit_s", d->bps.ok ? mdbl_of(d->bps.v / 1e6) : d->bps);
	json_add_mu64(o, "bytes", d->bytes);
	json_add_mdbl(o, "seconds", d->seconds);
	json_add_mdbl(o, "sender_bits_per_second", d->sender_bps);
	json_add_mu64(o, "sender_bytes", d->sender_bytes);
	json_add_mdbl(o, "sender_seconds", d->sender_seconds);
	json_add_mu64(o, "retransmits", d->retransmits);
	json_add_mdbl(o, "rtt_ms", d->rtt_ms);
	cJSON_AddNumberToObject(o, "bytes_moved", (double)d->moved);
	tl = cJSON_AddArrayToObject(o, "timeline_bits_per_second");
	for (unsigned i = 0; tl && d->status == NET_DONE && i < d->ntl; i++)
		cJSON_AddItemToArray(tl, cJSON_CreateNumber((double)d->tl_bytes[i] * 8));
	json_add_mdbl(o, "tail_ratio", d->tail_ratio);
	if (d->drop != MB_UNKNOWN)
		cJSON_AddBoolToObject(o, "drop", d->drop == MB_TRUE);
	else
		cJSON_AddNullToObject(o, "drop");
	/* the client's own CPU: only for a measured direction (its try's run) */
	json_add_mdbl(o, "cpu_share", d->status == NET_DONE ? d->cpu_share : (struct mdbl){ 0 });
	if (d->status == NET_DONE && d->cpu_bound != MB_UNKNOWN)
		cJSON_AddBoolToObject(o, "cpu_bound", d->cpu_bound == MB_TRUE);
	else
		cJSON_AddNullToObject(o, "cpu_bound");
	cJSON_AddNumberToObject(o, "tries", d->tries);
	if (d->port)
		cJSON_AddNumberToObject(o, "port", d->port);
	else
		cJSON_AddNullToObject(o, "port");
	json_add_str(o, "reason", d->reason);
	json_add_str(o, "note", d->note);
	cJSON_AddBoolToObject(o, "implausible", d->implausible);
	tl = cJSON_AddArrayToObject(o, "try_log");
	for (unsigned i = 0; tl && i < d->ntry_log; i++) {
		cJSON *t = cJSON_CreateObject();

		if (!t)
			break;
		cJSON_AddNumberToObject(t, "port", d->try_log[i].port);
		cJSON_AddNumberToObject(t, "seconds", d->try_log[i].seconds);
		json_add_str(t, "end", d->try_log[i].reason);
		cJSON_AddItemToArray(tl, t);
	}
	return o;
}

/* Each family's reach as the first connects found it: true, false (with the errors) or null. */
static cJSON *families(const struct net_result *r)
{
	cJSON *o = cJSON_CreateObject();

	for (int k = 0; o && k < 2; k++) {
		cJSON *f = cJSON_CreateObject();

		if (!f)
			break;
		json_add_mbool(f, "reachable", r->fam[k].reachable);
		json_add_str(f, "reason", r->fam[k].reason);
		cJSON_AddItemToObject(o, k ? "ipv6" : "ipv4", f);
	}
	return o;
}

cJSON *json_net(const struct bench_report *rep)
{
	const struct net_result *r = &rep->net;
	cJSON *o = cJSON_CreateObject(), *arr;

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "streams", r->streams);
	cJSON_AddNumberToObject(o, "duration_s", r->duration_s);
	cJSON_AddNumberToObject(o, "max_time_s", r->max_time_s);
	cJSON_AddStringToObject(o, "family", r->want4 && r->want6 ? "both" : r->want4 ? "ipv4" :
				r->want6 ? "ipv6" : "auto");
	cJSON_AddBoolToObject(o, "default_servers", r->defaults_used);
	cJSON_AddBoolToObject(o, "max_time_hit", r->max_time_hit);
	cJSON_AddBoolToObject(o, "quick", r->quick);
	json_add_str(o, "region", r->region);
	cJSON_AddNumberToObject(o, "planned_tests", r->planned_tests);
	cJSON_AddNumberToObject(o, "bytes_moved", (double)r->moved);
	cJSON_AddItemToObject(o, "families", families(r));
	arr = cJSON_AddArrayToObject(o, "servers");
	for (unsigned i = 0; arr && i < r->nrows; i++) {
		const struct net_row *row = &r->rows[i];
		cJSON *s = cJSON_CreateObject();

		if (!s)
			break;
		cJSON_AddStringToObject(s, "provider", row->srv.name);
		json_add_str(s, "location", row->srv.location);
		cJSON_AddStringToObject(s, "host", row->srv.host);
		cJSON_AddNumberToObject(s, "port_min", row->srv.port_lo);
		cJSON_AddNumberToObject(s, "port_max", row->srv.port_hi);
		cJSON_AddStringToObject(s, "mode", row->family == 6 ? "IPv6" : "IPv4");
		json_add_str(s, "address", row->addr);
		cJSON_AddStringToObject(s, "status", net_status_name(row->status));
		json_add_str(s, "reason", row->reason);
		json_add_mdbl(s, "latency_ms", row->latency_ms);
		cJSON_AddNumberToObject(s, "latency_samples", row->lat_ok);
		cJSON_AddNumberToObject(s, "bytes_moved", (double)(row->send.moved + row->recv.moved));
		json_add_str(s, "latency_reason", row->lat_reason);
		cJSON_AddItemToObject(s, "send", dir_obj(&row->send));
		cJSON_AddItemToObject(s, "recv", dir_obj(&row->recv));
		cJSON_AddItemToArray(arr, s);
	}
	arr = cJSON_AddArrayToObject(o, "http");
	for (unsigned i = 0; arr && i < r->nhttp; i++) {
		const struct net_http *h = &r->http[i];
		cJSON *x = cJSON_CreateObject();

		if (!x)
			break;
		cJSON_AddStringToObject(x, "url", h->url);
		cJSON_AddStringToObject(x, "status", net_status_name(h->status));
		json_add_str(x, "reason", h->reason);
		cJSON_AddNumberToObject(x, "connections", h->conns);
		cJSON_AddBoolToObject(x, "partial", h->capped);
		if (h->http_code)
			cJSON_AddNumberToObject(x, "http_code", (double)h->http_code);
		else
			cJSON_AddNullToObject(x, "http_code");
		json_add_mu64(x, "bytes", h->bytes);
		json_add_mdbl(x, "seconds", h->seconds);
		json_add_mdbl(x, "avg_mbit_s", h->avg_mbit_s);
		json_add_mdbl(x, "steady_mbit_s", h->steady_mbit_s);
		json_add_mdbl(x, "dns_ms", h->dns_ms);
		json_add_mdbl(x, "connect_ms", h->connect_ms);
		json_add_mdbl(x, "tls_ms", h->tls_ms);
		json_add_mdbl(x, "ttfb_ms", h->ttfb_ms);
		cJSON_AddItemToArray(arr, x);
	}
	return o;
}
#endif
