/*
 * yabs_net.c — yabs's "iperf" array from the net section, with yabs's own
 * field names and text units: mode "IPv4"/"IPv6", provider, loc, send and
 * recv as iperf3 prints them ("1.61 Gbits/sec"), latency "77.5 ms". As
 * yabs.sh writes them: a direction without a figure, for any reason, is
 * "busy " (its value "busy" and an empty unit joined by a space), an
 * unknown latency "--" (yabs's when ping gives nothing); never null. A
 * figure flagged implausible adds "send_implausible"/"recv_implausible":
 * true (yabs has no such field; readers of yabs's shape ignore it).
 */
#include <stdio.h>

#include "render.h"

#ifdef HAVE_CJSON
static void add_speed(cJSON *o, const char *key, const struct net_dir *d)
{
	char buf[32];

	if (d->status == NET_DONE) {
		net_fmt_bps(buf, sizeof(buf), d->bps.v);
		cJSON_AddStringToObject(o, key, buf);
	} else {
		cJSON_AddStringToObject(o, key, "busy ");
	}
}

int yabs_add_iperf(cJSON *root, const struct bench_report *rep)
{
	const struct net_result *r = &rep->net;
	cJSON *arr;

	if (!render_section_ran(rep, MOD_net) || !r->nrows)
		return 0;
	if (!(arr = cJSON_AddArrayToObject(root, "iperf")))
		return -1;
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct net_row *row = &r->rows[i];
		cJSON *e = cJSON_CreateObject();
		char lat[32];

		if (!e || !cJSON_AddItemToArray(arr, e)) {
			cJSON_Delete(e);
			return -1;
		}
		cJSON_AddStringToObject(e, "mode", row->family == 6 ? "IPv6" : "IPv4");
		cJSON_AddStringToObject(e, "provider", row->srv.name);
		cJSON_AddStringToObject(e, "loc", row->srv.location[0] ? row->srv.location :
					row->srv.host);
		add_speed(e, "send", &row->send);
		add_speed(e, "recv", &row->recv);
		if (row->latency_ms.ok)
			net_fmt_ms(lat, sizeof(lat), row->latency_ms.v);
		else
			snprintf(lat, sizeof(lat), "--");
		cJSON_AddStringToObject(e, "latency", lat);
		if (row->send.status == NET_DONE && row->send.implausible)
			cJSON_AddBoolToObject(e, "send_implausible", true);
		if (row->recv.status == NET_DONE && row->recv.implausible)
			cJSON_AddBoolToObject(e, "recv_implausible", true);
	}
	return 0;
}
#endif
