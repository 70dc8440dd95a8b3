/* test_upload.c — upload.c's pure helpers: URL checks, header redaction,
 * CA search below a fake root, the retry rule, home-path redaction. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report.h"
#include "th.h"
#include "report/upload.h"

TH_TEST(upload_url_schemes)
{
	static const struct {
		const char *url;
		bool allow_http;
		int rc;
		const char *err_has; /* NULL: no error */
	} cases[] = {
		{ "https://collector.example/add", false, 0, NULL },
		{ "HTTPS://collector.example/add", false, 0, NULL },
		{ "https://127.0.0.1:8443/", false, 0, NULL },
		{ "https://[::1]:8443/x", false, 0, NULL },
		{ "http://collector.example/add", false, -1, "--allow-http" },
		{ "http://collector.example/add", true, 0, NULL },
		{ "ftp://collector.example/add", true, -1, "only https" },
		{ "file:///etc/passwd", true, -1, "not a URL" },
		{ "collector.example/add", false, -1, "not a URL" },
		{ "https:///nohost", false, -1, "not a URL" },
		{ "https://a b/", false, -1, "space or control" },
		{ "https://a/\r\nX: y", false, -1, "space or control" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[512] = "";
		int rc = upload_url_check(cases[i].url, cases[i].allow_http, err, sizeof(err));

		TH_EQ_INT(rc, cases[i].rc);
		if (cases[i].err_has)
			TH_CHECK(strstr(err, cases[i].err_has) != NULL);
	}
}

TH_TEST(upload_url_display_hides_secrets)
{
	char b[256];

	upload_url_display("https://user:pw@collector.example:8443/add?token=abc#frag", b, sizeof(b));
	TH_EQ_STR(b, "https://collector.example:8443/add");
	upload_url_display("https://collector.example", b, sizeof(b));
	TH_EQ_STR(b, "https://collector.example");
	upload_url_display("nonsense", b, sizeof(b));
	TH_EQ_STR(b, "(not a URL)");
	/* the error of a refused URL shows the cleaned form only */
	char err[512];
	TH_EQ_INT(upload_url_check("http://u:secret@h/p?k=secret", false, err, sizeof(err)), -1);
	TH_CHECK(strstr(err, "secret") == NULL);
}

TH_TEST(upload_url_origin_compare)
{
	char a[128], b[128];

	TH_EQ_INT(upload_url_origin("https://Example.COM/x", a, sizeof(a)), 0);
	TH_EQ_STR(a, "https://example.com:443");
	TH_EQ_INT(upload_url_origin("https://example.com:443/y?z", b, sizeof(b)), 0);
	TH_EQ_STR(a, b);
	TH_EQ_INT(upload_url_origin("https://u:p@example.com:8443/", a, sizeof(a)), 0);
	TH_EQ_STR(a, "https://example.com:8443");
	TH_EQ_INT(upload_url_origin("http://[::1]/", a, sizeof(a)), 0);
	TH_EQ_STR(a, "http://[::1]:80");
	TH_EQ_INT(upload_url_origin("https://[::1]:9/", a, sizeof(a)), 0);
	TH_EQ_STR(a, "https://[::1]:9");
	TH_EQ_INT(upload_url_origin("nope", a, sizeof(a)), -1);
}

TH_TEST(upload_header_check_and_redact)
{
	char err[256], b[128];

	TH_EQ_INT(upload_header_check("Authorization: Bearer tok123", err, sizeof(err)), 0);
	TH_EQ_INT(upload_header_check("X-Api-Key:tok123", err, sizeof(err)), 0);
	TH_EQ_INT(upload_header_check("no colon tok123", err, sizeof(err)), -1);
	TH_CHECK(strstr(err, "tok123") == NULL);
	TH_EQ_INT(upload_header_check(": tok123", err, sizeof(err)), -1);
	TH_CHECK(strstr(err, "tok123") == NULL);
	TH_EQ_INT(upload_header_check("Bad Name: tok123", err, sizeof(err)), -1);
	TH_CHECK(strstr(err, "tok123") == NULL);
	TH_EQ_INT(upload_header_check("X-Token: tok123\r\nX-Evil: 1", err, sizeof(err)), -1);
	TH_CHECK(strstr(err, "X-Token") != NULL);
	TH_CHECK(strstr(err, "tok123") == NULL);
	upload_header_redact("Authorization: Bearer tok123", b, sizeof(b));
	TH_EQ_STR(b, "Authorization: <redacted>");
	TH_CHECK(strstr(b, "tok123") == NULL);
}

TH_TEST(upload_check_opts_table)
{
	struct bench_opts o;
	char err[512];

	memset(&o, 0, sizeof(o));
	TH_EQ_INT(upload_check_opts(&o, err, sizeof(err)), 0); /* no --upload: nothing to check */
	o.upload.v[0] = "https://collector.example/add";
	o.upload.n = 1;
	o.upload_header.v[0] = "X-Token: abc";
	o.upload_header.n = 1;
	if (upload_unavailable) {
		TH_EQ_INT(upload_check_opts(&o, err, sizeof(err)), -1);
		TH_CHECK(strstr(err, "built without libcurl") != NULL);
		return;
	}
	TH_EQ_INT(upload_check_opts(&o, err, sizeof(err)), 0);
	o.upload.v[1] = "http://collector.example/add";
	o.upload.n = 2;
	TH_EQ_INT(upload_check_opts(&o, err, sizeof(err)), -1);
	o.allow_http = true;
	TH_EQ_INT(upload_check_opts(&o, err, sizeof(err)), 0);
	o.cacert = "/nonexistent/ca.pem";
	TH_EQ_INT(upload_check_opts(&o, err, sizeof(err)), -1);
	TH_CHECK(strstr(err, "/nonexistent/ca.pem") != NULL);
}

static int put_file(const char *root, const char *rel, const char *text)
{
	char p[4096], *s;
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	/* mkdir -p of the parent */
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = 0;
		if (mkdir(p, 0755) < 0 && access(p, F_OK) < 0)
			return -1;
		*s = '/';
	}
	f = fopen(p, "w");
	if (!f)
		return -1;
	if (text && fputs(text, f) < 0) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

TH_TEST(upload_find_ca_fake_root)
{
	char root[] = "/tmp/vpsbench-ca.XXXXXX", p[4096], err[512];
	struct ca_choice ca;

	TH_CHECK(mkdtemp(root) != NULL);
	/* nothing at all: error names what to do */
	TH_EQ_INT(upload_find_ca(root, NULL, NULL, NULL, &ca, err, sizeof(err)), -1);
	TH_CHECK(strstr(err, "--cacert") != NULL);
	/* Arch only */
	TH_EQ_INT(put_file(root, "/etc/ca-certificates/extracted/tls-ca-bundle.pem", "PEM\n"), 0);
	TH_EQ_INT(upload_find_ca(root, NULL, NULL, NULL, &ca, err, sizeof(err)), 0);
	TH_EQ_INT(ca.kind, CA_FILE);
	TH_EQ_STR(ca.source, "Arch");
	/* an empty Alpine file does not count; a filled one wins over Arch (earlier in the list) */
	TH_EQ_INT(put_file(root, "/etc/ssl/cert.pem", ""), 0);
	TH_EQ_INT(upload_find_ca(root, NULL, NULL, NULL, &ca, err, sizeof(err)), 0);
	TH_EQ_STR(ca.source, "Arch");
	TH_EQ_INT(put_file(root, "/etc/ssl/cert.pem", "PEM\n"), 0);
	TH_EQ_INT(upload_find_ca(root, NULL, NULL, NULL, &ca, err, sizeof(err)), 0);
	TH_EQ_STR(ca.source, "Alpine");
	/* RHEL, then Debian first of all */
	TH_EQ_INT(put_file(root, "/etc/pki/tls/certs/ca-bundle.crt", "PEM\n"), 0);
	TH_EQ_INT(upload_find_ca(root, NULL, NULL, NULL, &ca, err, sizeof(err)), 0);
	TH_EQ_STR(ca.source, "RHEL/CentOS");
	TH_EQ_INT(put_file(root, "/etc/ssl/certs/ca-certificates.crt", "PEM\n"), 0);
	TH_EQ_INT(upload_find_ca(root, NULL, NULL, NULL, &ca, err, sizeof(err)), 0);
	TH_EQ_STR(ca.source, "Debian/Ubuntu");
	snprintf(p, sizeof(p), "%s/etc/ssl/certs/ca-certificates.crt", root);
	TH_EQ_STR(ca.path, p);
	/* SSL_CERT_DIR beats the bundles, SSL_CERT_FILE beats the dir, --cacert beats all */
	snprintf(p, sizeof(p), "%s/etc/ssl/certs", root);
	TH_EQ_INT(upload_find_ca(root, NULL, NULL, p, &ca, err, sizeof(err)), 0);
	TH_EQ_INT(ca.kind, CA_DIR);
	TH_EQ_STR(ca.source, "SSL_CERT_DIR");
	snprintf(p, sizeof(p), "%s/etc/ssl/cert.pem", root);
	TH_EQ_INT(upload_find_ca(root, NULL, p, "/nonexistent", &ca, err, sizeof(err)), 0);
	TH_EQ_STR(ca.source, "SSL_CERT_FILE");
	/* an unusable SSL_CERT_FILE falls through to the bundles */
	TH_EQ_INT(upload_find_ca(root, NULL, "/nonexistent.pem", NULL, &ca, err, sizeof(err)), 0);
	TH_EQ_STR(ca.source, "Debian/Ubuntu");
	TH_EQ_INT(upload_find_ca(root, p, NULL, NULL, &ca, err, sizeof(err)), 0);
	TH_EQ_STR(ca.source, "--cacert");
	TH_EQ_STR(ca.path, p);
	/* an unreadable --cacert is an error, not a fallback */
	TH_EQ_INT(upload_find_ca(root, "/nonexistent/ca.pem", NULL, NULL, &ca, err, sizeof(err)), -1);
	TH_CHECK(strstr(err, "No such file") != NULL);
	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	TH_EQ_INT(system(p), 0);
}

TH_TEST(upload_retry_rule)
{
	static const struct {
		enum upload_fail f;
		long status;
		unsigned tries;
		bool retry;
	} cases[] = {
		{ UPF_CONNECT, 0, 1, true },
		{ UPF_CONNECT, 0, 2, true },
		{ UPF_CONNECT, 0, 3, false }, /* at most 3 tries */
		{ UPF_NONE, 500, 1, true },
		{ UPF_NONE, 503, 2, true },
		{ UPF_NONE, 599, 1, true },
		{ UPF_NONE, 500, 3, false },
		{ UPF_NONE, 200, 1, false },
		{ UPF_NONE, 404, 1, false },
		{ UPF_NONE, 429, 1, false },
		{ UPF_NONE, 600, 1, false },
		{ UPF_TLS, 0, 1, false },     /* a bad certificate does not get better */
		{ UPF_TIMEOUT, 0, 1, false }, /* the collector may have the report already */
		{ UPF_OTHER, 0, 1, false },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		TH_EQ_INT(upload_should_retry(cases[i].f, cases[i].status, cases[i].tries),
			  cases[i].retry);
	TH_EQ_INT(upload_backoff_ms(1, 1000), 1000);
	TH_EQ_INT(upload_backoff_ms(2, 1000), 2000);
	TH_EQ_INT(upload_backoff_ms(2, 50), 100);
	TH_EQ_INT(upload_backoff_ms(0, 1000), 1000);
}

TH_TEST(upload_first_line_cleaned)
{
	char b[16];

	upload_first_line("stored ok\nsecond", 16, b, sizeof(b));
	TH_EQ_STR(b, "stored ok");
	upload_first_line("a\r\nb", 4, b, sizeof(b));
	TH_EQ_STR(b, "a");
	upload_first_line("\x1b[31mred", 8, b, sizeof(b));
	TH_EQ_STR(b, "?[31mred");
	upload_first_line("0123456789abcdefghij", 20, b, sizeof(b));
	TH_EQ_STR(b, "0123456789abcde");
	upload_first_line("", 0, b, sizeof(b));
	TH_EQ_STR(b, "");
}

TH_TEST(upload_default_name_shape)
{
	const char *old = getenv("TZ");
	char b[128], keep[128];

	snprintf(keep, sizeof(keep), "%s", old ? old : "");
	setenv("TZ", "UTC", 1);
	tzset();
	upload_default_name(1682271674, b, sizeof(b));
	TH_EQ_STR(b, "./vpsbench-report-20230423-174114.json");
	if (old)
		setenv("TZ", keep, 1);
	else
		unsetenv("TZ");
	tzset();
}

TH_TEST(upload_save_never_clobbers)
{
	char dir[] = "/tmp/vpsbench-save.XXXXXX", p[256], buf[16];
	FILE *log = fopen("/dev/null", "w");
	int fd;

	TH_CHECK(log != NULL);
	TH_CHECK(mkdtemp(dir) != NULL);
	snprintf(p, sizeof(p), "%s/r.json", dir);
	TH_EQ_INT(upload_save(p, "{}\n", 3, log), 0);
	TH_EQ_INT(upload_save(p, "{\"x\":1}\n", 8, log), -1); /* exists: refused */
	fd = open(p, O_RDONLY);
	TH_CHECK(fd >= 0);
	TH_EQ_INT(read(fd, buf, sizeof(buf)), 3);
	TH_EQ_INT(memcmp(buf, "{}\n", 3), 0);
	close(fd);
	unlink(p);
	rmdir(dir);
	fclose(log);
}

TH_TEST(upload_payload_cap)
{
	static struct bench_opts o;
	FILE *log = tmpfile();
	char *big = calloc(1, UPLOAD_MAX_BYTES + 2), msg[256] = "";

	TH_CHECK(log && big);
	if (!log || !big)
		return;
	memset(big, ' ', UPLOAD_MAX_BYTES + 1);
	o.upload.v[0] = "https://127.0.0.1:1/never";
	o.upload.n = 1;
	/* refused before any connection: saved_path given, so nothing is written either */
	TH_EQ_INT(upload_report(&o, "", big, UPLOAD_MAX_BYTES + 1, "/dev/null", NULL, log), -1);
	rewind(log);
	TH_CHECK(fread(msg, 1, sizeof(msg) - 1, log) > 0);
	if (!upload_unavailable)
		TH_CHECK(strstr(msg, "above the 1048576-byte cap") != NULL);
	fclose(log);
	free(big);
}

TH_TEST(report_redact_path_table)
{
	static const struct {
		const char *path, *home, *want;
		bool replaced;
	} cases[] = {
		{ "/home/alice/bench", "/home/alice", "~/bench", true },
		{ "/home/alice", "/home/alice", "~", true },
		{ "/home/alice/bench", "/home/alice/", "~/bench", true },
		{ "/home/alice2/bench", "/home/alice", "/home/alice2/bench", false },
		{ "/srv/home/alice", "/home/alice", "/srv/home/alice", false },
		{ "/tmp/x", "/home/alice", "/tmp/x", false },
		{ "/anything", "/", "/anything", false },
		{ "/anything", "", "/anything", false },
		{ "/anything", NULL, "/anything", false },
		{ "/root/t", "/root", "~/t", true },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char b[256];

		TH_EQ_INT(report_redact_path(cases[i].path, cases[i].home, b, sizeof(b)),
			  cases[i].replaced);
		TH_EQ_STR(b, cases[i].want);
	}
}

TH_TEST(report_redact_text_table)
{
	static const struct {
		const char *text, *home, *want;
	} cases[] = {
		{ "only 3 MiB free on /home/alice/b; a run needs", "/home/alice",
		  "only 3 MiB free on ~/b; a run needs" },
		{ "/home/alice: EROFS, /home/alice/x too", "/home/alice", "~: EROFS, ~/x too" },
		{ "/home/alice2/x and /x/home/alice/y", "/home/alice", "/home/alice2/x and /x/home/alice/y" },
		{ "'/home/alice/q'", "/home/alice/", "'~/q'" },
		{ "nothing here", "/home/alice", "nothing here" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char b[256];

		snprintf(b, sizeof(b), "%s", cases[i].text);
		report_redact_text(b, sizeof(b), cases[i].home);
		TH_EQ_STR(b, cases[i].want);
	}
}

TH_TEST(report_redact_home_whole_report)
{
	static struct bench_report rep;
	static const char arg[] = "/home/alice/bench";

	memset(&rep, 0, sizeof(rep));
	rep.sys.ndirs = 1;
	snprintf(rep.sys.dirs[0].arg, sizeof(rep.sys.dirs[0].arg), "%s", arg);
	snprintf(rep.sys.dirs[0].fs.path, sizeof(rep.sys.dirs[0].fs.path), "%s", arg);
	rep.seq.ndirs = 1;
	snprintf(rep.seq.dirs[0].dir, sizeof(rep.seq.dirs[0].dir), "%s", arg);
	snprintf(rep.seq.dirs[0].reason, sizeof(rep.seq.dirs[0].reason), "no space on %s", arg);
	rep.rand.npass = 1;
	rep.rand.pass[0].dir = arg;
	report_warn(&rep, "%s is on tmpfs", arg);
	snprintf(rep.outcome[MOD_seq].reason, sizeof(rep.outcome[MOD_seq].reason), "skipped %s", arg);

	report_redact_home(&rep, "/home/alice");
	TH_EQ_STR(rep.sys.dirs[0].arg, "~/bench");
	TH_EQ_STR(rep.sys.dirs[0].fs.path, "~/bench");
	TH_EQ_STR(rep.seq.dirs[0].dir, "~/bench");
	TH_EQ_STR(rep.seq.dirs[0].reason, "no space on ~/bench");
	TH_EQ_STR(rep.rand.pass[0].dir, "~/bench");
	TH_EQ_STR(arg, "/home/alice/bench"); /* the option string itself is untouched */
	TH_EQ_STR(rep.warn.msg[0], "~/bench is on tmpfs");
	TH_EQ_STR(rep.outcome[MOD_seq].reason, "skipped ~/bench");
}
